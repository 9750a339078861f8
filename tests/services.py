"""Throwaway PostgreSQL, Redis, nginx, IRC (ngircd) and Matrix (Synapse) servers on
127.0.0.1, for the tests and for CI.

Each server keeps everything (data, logs, pid file) in a temporary folder of its own,
listens on a free loopback port and leaves nothing behind once stopped; the machine's
own clusters and configuration are never read or touched. Only Debian's binaries are
needed (``postgresql``, ``redis-server``, ``nginx-light`` or ``nginx``, ``ngircd``). PostgreSQL
refuses to run as root, so under root it runs as the ``postgres`` user.

From the shell (``.ci/run``), with the repository as the working directory::

    eval "$(python3 -m tests.services start "$dir")"  # exports CE_TEST_*_URL
    python3 -m tests.services stop "$dir"

``tests/conftest.py`` starts its own the same way when those variables are not set.
Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pwd
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Self

POSTGRES_ENV = "CE_TEST_POSTGRES_URL"
REDIS_ENV = "CE_TEST_REDIS_URL"
STATE = "services.json"
PG_USER = "postgres"  # the unprivileged account PostgreSQL runs as under root


def end(process: subprocess.Popen[bytes] | None, seconds: float) -> None:
    """Terminate ``process`` (if any) and wait; killed if it outlives ``seconds``."""
    if process is None:
        return
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class ServiceUnavailable(RuntimeError):
    """A server cannot be started here (its binaries are missing); says what to install."""


def free_port() -> int:
    """A TCP port nobody listens on at the moment, on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, seconds: float, alive: Any = None) -> None:
    """Return once 127.0.0.1:port accepts connections; ``alive()`` False gives up early."""
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        if time.monotonic() > deadline or (alive is not None and not alive()):
            raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")
        time.sleep(0.05)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _stop_pid_file(path: Path, sig: signal.Signals = signal.SIGTERM, seconds: float = 20) -> None:
    """Signal the process named in a pid file and wait until it has gone."""
    try:
        pid = int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)
    deadline = time.monotonic() + seconds
    while _pid_alive(pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            break
        time.sleep(0.02)


def _run(command: Sequence[str | Path], what: str, **kwargs: Any) -> None:
    result = subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, check=False, **kwargs
    )
    if result.returncode != 0:
        raise RuntimeError(f"{what} failed ({result.returncode}):\n{result.stdout}{result.stderr}")


def postgres_bin() -> Path:
    """The folder of PostgreSQL's server binaries (``CE_PG_BIN``, else Debian's newest)."""
    if "CE_PG_BIN" in os.environ:
        folder = Path(os.environ["CE_PG_BIN"])
        if not (folder / "initdb").is_file():
            raise ServiceUnavailable(f"CE_PG_BIN={folder} holds no initdb")
        return folder
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
    )
    if versions:
        return versions[-1].parent
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    raise ServiceUnavailable(
        f"PostgreSQL is not installed (Debian: apt-get install postgresql), and {POSTGRES_ENV} "
        "is not set"
    )


def _binary(name: str, package: str) -> Path:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    if not found:
        raise ServiceUnavailable(f"{name} is not installed (Debian: apt-get install {package})")
    return Path(found)


class _Server:
    """A server in a temporary folder of its own, on a loopback port; ``state()`` and
    ``from_state()`` carry it from ``start`` to ``stop`` across processes (the CLI)."""

    def __init__(self, folder: Path | None = None, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or 0
        self.url = ""

    def state(self) -> dict[str, Any]:
        return {"folder": str(self.folder), "port": self.port, "url": self.url}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Self:
        server = cls(Path(state["folder"]), state["port"])
        server.url = state["url"]
        return server


class Postgres(_Server):
    """A PostgreSQL cluster made by ``initdb`` in a temporary folder, trusting loopback.

    Durability is off (``fsync``, ``synchronous_commit``, ``full_page_writes``): the data
    is thrown away anyway, and creating a database per test stays quick. No Unix socket.
    """

    @property
    def data(self) -> Path:
        assert self.folder is not None
        return self.folder / "data"

    def _as_owner(self) -> dict[str, Any]:
        """Subprocess options that drop root to the ``postgres`` user (nothing otherwise)."""
        if os.geteuid() != 0:
            return {}
        try:
            entry = pwd.getpwnam(PG_USER)
        except KeyError:
            raise ServiceUnavailable(
                f"PostgreSQL will not run as root and there is no {PG_USER!r} user "
                "(Debian's postgresql package makes it)"
            ) from None
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    def start(self) -> str:
        """initdb, then start on a free port; returns the superuser's URL."""
        binaries = postgres_bin()
        owner = self._as_owner()
        # A folder straight under the temporary directory: a pytest or mktemp folder is
        # private to root, and the postgres user could not even reach its own data.
        self.folder = Path(tempfile.mkdtemp(prefix="ce-postgres-"))
        if owner:
            os.chown(self.folder, owner["user"], owner["group"])
        _run(
            [
                binaries / "initdb",
                *("-D", self.data, "-U", "postgres", "-A", "trust"),
                *("-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"),
            ],
            "initdb",
            cwd=self.folder,
            **owner,
        )
        self.port = self.port or free_port()
        options = (
            f"-h 127.0.0.1 -p {self.port} -k '' -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off -c max_connections=300 -c shared_buffers=32MB"
        )
        _run(
            [
                *(binaries / "pg_ctl", "start", "-D", self.data, "-w", "-t", "60"),
                *("-l", self.folder / "postgres.log", "-o", options),
            ],
            "starting PostgreSQL",
            cwd=self.folder,
            **owner,
        )
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        return self.url

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its folder."""
        if self.folder is None:
            return
        if (self.data / "postmaster.pid").exists():
            _run(
                [postgres_bin() / "pg_ctl", "stop", "-D", self.data, "-m", "fast", "-w"],
                "stopping PostgreSQL",
                cwd=self.folder,
                **self._as_owner(),
            )
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


class Redis(_Server):
    """A Redis server in a temporary folder: no persistence, 64 numbered databases."""

    DATABASES = 64

    def start(self) -> str:
        binary = _binary("redis-server", "redis-server")
        self.folder = Path(tempfile.mkdtemp(prefix="ce-redis-"))
        self.port = self.port or free_port()
        _run(
            [
                binary,
                *("--bind", "127.0.0.1", "--port", str(self.port), "--dir", self.folder),
                *("--save", "", "--appendonly", "no", "--databases", str(self.DATABASES)),
                *("--daemonize", "yes", "--pidfile", self.folder / "redis.pid"),
                *("--logfile", self.folder / "redis.log", "--maxclients", "10000"),
            ],
            "starting Redis",
        )
        wait_for_port(self.port, 30)
        self.url = f"redis://127.0.0.1:{self.port}"
        return self.url

    def stop(self) -> None:
        if self.folder is None:
            return
        _stop_pid_file(self.folder / "redis.pid")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


NGINX_MAIN = """\
worker_processes 1;
{user}pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{http}
}}
"""


class Nginx:
    """Debian's nginx with a given ``http { }`` body, on a free loopback port.

    Write ``listen {listen};`` in the body: it becomes ``127.0.0.1:PORT``. For example::

        Nginx(folder, "server { listen {listen}; location / { return 200 'hi'; } }")
    """

    def __init__(self, folder: Path, http: str, port: int | None = None) -> None:
        self.folder = folder
        self.http = http
        self.port = port or 0
        self.url = ""

    def _command(self, *extra: str) -> list[str]:
        binary = _binary("nginx", "nginx-light")
        conf = self.folder / "nginx.conf"
        return [str(binary), "-p", f"{self.folder}/", "-c", str(conf), "-e", "stderr", *extra]

    def _write_config(self) -> None:
        user = "user root root;\n" if os.geteuid() == 0 else ""  # workers reach the folder
        body = self.http.replace("{listen}", f"127.0.0.1:{self.port}")
        conf = NGINX_MAIN.format(folder=self.folder, user=user, http=body)
        (self.folder / "nginx.conf").write_text(conf)

    def start(self) -> str:
        self.port = self.port or free_port()
        self.folder.mkdir(parents=True, exist_ok=True)
        self._write_config()
        _run(self._command(), "starting nginx")  # parses the config, then daemonizes
        wait_for_port(self.port, 30)
        self.url = f"http://127.0.0.1:{self.port}"
        return self.url

    def reload(self, http: str, timeout: float = 30.0) -> None:
        """Swap in a new ``http`` body (``nginx -s reload``), same port, and return once
        the old workers are gone: until then an old worker may still take a connection."""
        self.http = http
        self._write_config()
        old = self._workers()
        _run(self._command("-s", "reload"), "reloading nginx")
        deadline = time.monotonic() + timeout
        while old & self._workers():
            if time.monotonic() > deadline:
                raise RuntimeError(f"nginx's old workers {old} still run after {timeout} s")
            time.sleep(0.02)

    def _workers(self) -> set[int]:
        """The master's worker processes (Linux: from /proc)."""
        master = int((self.folder / "nginx.pid").read_text())
        children = Path(f"/proc/{master}/task/{master}/children")
        return {int(pid) for pid in children.read_text().split()} if children.exists() else set()

    def stop(self) -> None:
        _stop_pid_file(self.folder / "nginx.pid", signal.SIGTERM)


NGIRCD_CONF = """\
[Global]
Name = irc.test
Info = a throwaway IRC server for the tests
Listen = 127.0.0.1
Ports = {port}
MotdPhrase = tests only
[Limits]
MaxNickLength = 30
PingTimeout = 120
MaxPenaltyTime = {penalty}
[Options]
PAM = no
Ident = no
DNS = no
"""


class Ngircd:
    """Debian's ngircd in the foreground (a child of this process) on a free loopback
    port, its configuration and log in ``folder``. ``penalty=0`` turns off ngircd's own
    flood penalties, so that scripted clients and the host (paced by its own token
    bucket) are not slowed by the server; ``restart()`` is a netsplit on the same port.
    """

    def __init__(self, folder: Path, port: int | None = None, *, penalty: int = 0) -> None:
        self.folder = folder
        self.port = port or 0
        self.penalty = penalty
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> int:
        binary = _binary("ngircd", "ngircd")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = self.port or free_port()
        conf = self.folder / "ngircd.conf"
        conf.write_text(NGIRCD_CONF.format(port=self.port, penalty=self.penalty))
        with (self.folder / "ngircd.log").open("ab") as out:
            self.process = subprocess.Popen(
                [str(binary), "-n", "-f", str(conf)], stdout=out, stderr=subprocess.STDOUT
            )
        process = self.process
        wait_for_port(self.port, 30, alive=lambda: process.poll() is None)
        return self.port

    def stop(self) -> None:
        process, self.process = self.process, None
        end(process, 20)

    def restart(self) -> None:
        """Stop and start again on the same port: every client is cut off."""
        self.stop()
        self.start()


SYNAPSE_CONF = """\
server_name: "{name}"
pid_file: "{folder}/homeserver.pid"
listeners:
  - port: {port}
    bind_addresses: ["127.0.0.1"]
    type: http
    tls: false
    x_forwarded: false
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: "{folder}/homeserver.db"
media_store_path: "{folder}/media"
signing_key_path: "{folder}/signing.key"
registration_shared_secret: "{secret}"
macaroon_secret_key: "{secret}-macaroon"
form_secret: "{secret}-form"
report_stats: false
bcrypt_rounds: 4
enable_metrics: false
trusted_key_servers: []
suppress_key_server_warning: true
presence:
  enabled: false
rc_message: {{per_second: 1000, burst_count: 1000}}
rc_login:
  address: {{per_second: 1000, burst_count: 1000}}
  account: {{per_second: 1000, burst_count: 1000}}
  failed_attempts: {{per_second: 1000, burst_count: 1000}}
rc_registration: {{per_second: 1000, burst_count: 1000}}
rc_joins:
  local: {{per_second: 1000, burst_count: 1000}}
rc_invites:
  per_room: {{per_second: 1000, burst_count: 1000}}
  per_user: {{per_second: 1000, burst_count: 1000}}
  per_issuer: {{per_second: 1000, burst_count: 1000}}
"""


class Synapse:
    """Synapse (the ``matrix-synapse`` package) on SQLite in ``folder``, a child of this
    process on a free loopback port; accounts are made with the shared secret
    (``register``). Its rate limits are lifted: the chat host paces itself."""

    def __init__(self, folder: Path, name: str = "test") -> None:
        self.folder = folder
        self.name = name
        self.port = 0
        self.url = ""
        self.secret = "shared-" + os.urandom(8).hex()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        try:
            import synapse  # noqa: F401
        except ImportError:
            raise ServiceUnavailable(
                "Synapse is not installed (pip install matrix-synapse)"
            ) from None
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        conf = self.folder / "homeserver.yaml"
        conf.write_text(
            SYNAPSE_CONF.format(
                name=self.name, folder=self.folder, port=self.port, secret=self.secret
            )
        )
        command = [sys.executable, "-m", "synapse.app.homeserver", "-c", str(conf)]
        _run([*command, "--generate-keys"], "making Synapse's signing key", cwd=self.folder)
        with (self.folder / "synapse.log").open("ab") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, cwd=self.folder
            )
        process = self.process
        wait_for_port(self.port, 120, alive=lambda: process.poll() is None)
        self.url = f"http://127.0.0.1:{self.port}"
        return self.url

    def register(self, user: str, password: str, admin: bool = False) -> str:
        """Make an account with the shared secret (Synapse's admin API); its user id."""
        import hashlib
        import hmac
        import urllib.request

        endpoint = f"{self.url}/_synapse/admin/v1/register"
        with urllib.request.urlopen(endpoint, timeout=30) as reply:
            nonce = json.load(reply)["nonce"]
        mac = hmac.new(self.secret.encode(), digestmod=hashlib.sha1)
        flag = b"admin" if admin else b"notadmin"
        mac.update(b"\x00".join([nonce.encode(), user.encode(), password.encode(), flag]))
        body = {
            "nonce": nonce,
            "username": user,
            "password": password,
            "admin": admin,
            "mac": mac.hexdigest(),
        }
        request = urllib.request.Request(
            endpoint, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            return str(json.load(reply)["user_id"])

    def stop(self) -> None:
        process, self.process = self.process, None
        end(process, 30)


def start(folder: Path) -> dict[str, str]:
    """Start PostgreSQL and Redis; remember them in ``folder``; their URLs by variable."""
    folder.mkdir(parents=True, exist_ok=True)
    postgres, redis = Postgres(), Redis()
    state: dict[str, Any] = {}
    try:
        postgres.start()
        state["postgres"] = postgres.state()
        redis.start()
        state["redis"] = redis.state()
    finally:
        (folder / STATE).write_text(json.dumps(state))
    return {POSTGRES_ENV: postgres.url, REDIS_ENV: redis.url}


def stop(folder: Path) -> None:
    """Stop whatever ``start(folder)`` started."""
    try:
        state = json.loads((folder / STATE).read_text())
    except (OSError, ValueError):
        return
    if "redis" in state:
        Redis.from_state(state["redis"]).stop()
    if "postgres" in state:
        Postgres.from_state(state["postgres"]).stop()
    (folder / STATE).unlink()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m tests.services",
        description="Start or stop a throwaway PostgreSQL and Redis on 127.0.0.1.",
    )
    parser.add_argument("action", choices=["start", "stop"])
    parser.add_argument("folder", type=Path, help="where to remember the servers")
    args = parser.parse_args(argv)
    if args.action == "stop":
        stop(args.folder)
        return 0
    try:
        urls = start(args.folder)
    except (ServiceUnavailable, RuntimeError) as exc:
        print(f"services: {exc}", file=sys.stderr)
        stop(args.folder)
        return 1
    for name, url in urls.items():
        print(f"export {name}={shlex.quote(url)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
