"""The ``crazy-eights`` command line: play in a terminal, replay, list rules, and the
commands the simulation lab and the card room register (sim, tournament, serve)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .engine import Event, IllegalMove, Move, Rules, RulesError, new_game, replay
from .engine.cards import CARD_TEXT, SUIT_NAMES, SUITS
from .engine.events import (
    CycleWon,
    DirectionChanged,
    Drew,
    FalseCall,
    GameOver,
    HostLed,
    LastCardCalled,
    Passed,
    PenaltyDrawn,
    PickedUp,
    Played,
    Reshuffled,
    RoundOver,
    RoundStarted,
    Skipped,
    StarterTurned,
    SuitDeclared,
    TimedOut,
)
from .engine.game import Game
from .engine.rules import RULESETS, parse_setting_pairs

app = typer.Typer(
    help="Crazy Eights: play in the terminal, serve the card room, simulate bots.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console(highlight=False)

SUIT_STYLE = {"S": "bold white", "H": "bold red", "D": "bold red", "C": "bold white"}
SUIT_GLYPH = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def build_rules(ruleset: str, players: int, settings: list[str]) -> Rules:
    try:
        return Rules.preset(ruleset, players=players, **parse_setting_pairs(settings))
    except RulesError as exc:
        raise typer.BadParameter(str(exc)) from None


def card_markup(text: str) -> Text:
    """A card as coloured text: ``8♥``."""
    if text in ("BJ", "RJ", "JK"):
        style = {"BJ": "bold white", "RJ": "bold red", "JK": "bold magenta"}[text]
        return Text(text, style=style)
    rank, suit = text[:-1], text[-1]
    rank = "10" if rank == "T" else rank
    return Text(rank + SUIT_GLYPH[suit], style=SUIT_STYLE[suit])


def move_markup(move: Move) -> Text:
    """A move as coloured text, from the move's own fields (no move text is read here)."""
    if move.card is None and move.suit is None:
        return Text(move.text, style="cyan")
    out = card_markup(CARD_TEXT[move.card]) if move.card is not None else Text("")
    if move.suit is not None:
        out.append(" \u2192 " + SUIT_NAMES[move.suit], style=SUIT_STYLE[SUITS[move.suit]])
    if move.call:
        out.append("  + last card!", style="bold yellow")
    return out


def _who(seat: int | None, you: int | None) -> str:
    if seat is None:
        return "The host"
    return "You" if seat == you else f"Seat {seat}"


def _cards(event: Event, you: int | None, reveal: bool) -> str:
    """The event's cards as ``you`` may see them (all with ``reveal``), in brackets."""
    shown = event.shown if reveal else event.visible_cards(you)
    return f" ({' '.join(CARD_TEXT[c] for c in shown)})" if shown else ""


def _suit(suit: int) -> str:
    return SUIT_NAMES[suit]


PENALTY_TEXT = {"draw_two": "from a two", "last_card": "for not calling last card"}
PICKUP_TEXT = {"stock_empty": "as nothing fits", "last_card": "for not calling last card"}


def describe(event: Event, you: int | None, *, reveal: bool = False) -> str | None:
    """One line of plain text for an event as seat ``you`` saw it (``reveal``: every
    card shown, as the referee sees it); None when it is not worth a line."""
    who = _who(event.seat, you)
    for line_of in (_cards_line, _turn_line, _table_line):
        line = line_of(event, who, you, reveal)
        if line is not None:
            return line
    return None


def _cards_line(event: Event, who: str, you: int | None, reveal: bool) -> str | None:
    """The line of an event that moves or shows cards of a hand (else None)."""
    match event:
        case Played(card=card, declared=declared, lead=lead):
            line = f"{who} {'led' if lead else 'played'} {CARD_TEXT[card]}"
            return line + (f" and declared {_suit(declared)}" if declared is not None else "")
        case Drew(cards=cards):
            count = len(cards)
            return f"{who} drew {count} card{'s' if count != 1 else ''}{_cards(event, you, reveal)}"
        case PenaltyDrawn(cards=cards, reason=reason):
            text = PENALTY_TEXT[reason]
            return f"{who} drew {len(cards)} {text}{_cards(event, you, reveal)}"
        case PickedUp(cards=cards, reason=reason):
            return f"{who} picked up {len(cards)} {PICKUP_TEXT[reason]}{_cards(event, you, reveal)}"
        case FalseCall(suit=suit, count=count):
            return f"{who} called last card falsely: {count} {_suit(suit)} in hand"
    return None


def _turn_line(event: Event, who: str, you: int | None, reveal: bool) -> str | None:
    """The line of an event of one player's turn that moves no card (else None)."""
    match event:
        case Skipped():
            return f"{who} {'are' if who == 'You' else 'is'} skipped"
        case Passed():
            return f"{who} passed"
        case DirectionChanged(direction=direction):
            return "Direction reversed: " + ("clockwise" if direction == 1 else "anticlockwise")
        case LastCardCalled():
            return f"{who}: last card!"
        case SuitDeclared(suit=suit):
            return f"{who} declared {_suit(suit)} for the starter eight"
        case TimedOut():
            return f"{who} ran out of time"
    return None


def _table_line(event: Event, who: str, you: int | None, reveal: bool) -> str | None:
    """The line of an event of the table: the stock, a round, a cycle, the game (else
    None)."""
    match event:
        case Reshuffled(count=count):
            return f"The discards were shuffled into a new stock of {count}"
        case StarterTurned(card=card):
            return f"Starter: {CARD_TEXT[card]}"
        case RoundStarted(round=number, dealer=dealer):
            return f"Round {number} (dealer: seat {dealer})"
        case HostLed(card=card, cycle=cycle):
            return f"Cycle {cycle}: the host leads {CARD_TEXT[card]}"
        case CycleWon(winner=winner):
            return f"{_who(None if winner < 0 else winner, you)} won the cycle"
        case RoundOver(seat=seat, reason=reason, points=points, scores=scores):
            if seat is None:
                return "Round over: nobody could play (no winner)"
            how = {"out": "went out", "blockade": "wins the blockade"}.get(reason, reason)
            return f"Round over: {who} {how}. Points in hand: {list(points)}, totals {list(scores)}"
        case GameOver(seat=seat):
            return f"Game over. Winner: seat {seat}" if seat is not None else "Game over."
    return None


def show_table(game: Game, seat: int) -> None:
    view = game.view(seat)
    header = Text(f"{view['ruleset'].title()}  round {view.get('round', 1)}  ")
    if view.get("target"):
        header.append(f"target {view['target']}  ")
    console.rule(header)
    players = Table(box=None, show_header=True, pad_edge=False)
    players.add_column("seat")
    players.add_column("cards", justify="right")
    players.add_column("score", justify="right")
    if view["ruleset"] == "countdown":
        players.add_column("number (wild)", justify="right")
    for p in view["players"]:
        name = "you" if p["seat"] == seat else f"bot {p['seat']}"
        marker = " \u25c0" if p["seat"] == view["current"] else ""
        row = [name + marker, str(p["cards"]), str(p.get("score", ""))]
        if view["ruleset"] == "countdown":
            row.append(f"{p['number']} ({p['wild']})")
        players.add_row(*row)
    console.print(players)
    top = Text("Top card: ")
    top.append_text(card_markup(view["top"]))
    suit = view["active_suit"]
    top.append("   active suit: ")
    top.append(f"{SUIT_GLYPH[suit]} {SUIT_NAMES[SUITS.index(suit)]}", style=SUIT_STYLE[suit])
    if view["declared"]:
        top.append(" (declared)", style="italic")
    top.append(f"   stock: {view['stock']}")
    if view.get("pending_draw"):
        top.append(f"   draw {view['pending_draw']} pending!", style="bold yellow")
    console.print(top)
    hand = Text("Your hand: ")
    for i, card in enumerate(view["hand"]):
        if i:
            hand.append(" ")
        hand.append_text(card_markup(card))
    console.print(hand)


def ask_move(game: Game, seat: int, read: Any) -> Move | None:
    """Prompt until the player gives a legal move (a number or move text); None to quit."""
    legal = game.legal_moves()
    listing = Text()
    for i, move in enumerate(legal, 1):
        listing.append(f" {i:>2}) ")
        listing.append_text(move_markup(move))
        listing.append("\n")
    console.print(listing, end="")
    while True:
        try:
            answer = read("Your move (number or text, q to quit): ").strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer.isdigit():
            index = int(answer)
            if 1 <= index <= len(legal):
                return legal[index - 1]
            console.print(f"[red]Choose a number from 1 to {len(legal)}.[/red]")
            continue
        try:
            game.verify_move(answer)
        except IllegalMove as exc:
            console.print(f"[red]{exc.reason}[/red]")
            continue
        return Move.parse(answer)


@app.command()
def play(
    rules_name: Annotated[
        str, typer.Option("--rules", help=f"ruleset: {', '.join(RULESETS)}")
    ] = "classic",
    players: Annotated[int, typer.Option(help="number of players, you included")] = 4,
    seed: Annotated[int | None, typer.Option(help="deal seed (random if omitted)")] = None,
    bots: Annotated[str, typer.Option(help="bot level: random, heuristic or ismcts")] = "heuristic",
    setting: Annotated[
        list[str] | None,
        typer.Option("--set", help="a table setting as key=value, e.g. --set mode=single"),
    ] = None,
    save: Annotated[Path | None, typer.Option(help="write the finished game here (JSON)")] = None,
) -> None:
    """Play at seat 0 against bots in the terminal."""
    from .bots import make_bot

    rules = build_rules(rules_name, players, setting or [])
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    game = new_game(rules, seed=seed)
    opponents = {s: make_bot(bots, seed=seed + s) for s in range(1, rules.players)}
    console.print(
        f"[bold]Crazy Eights — {rules.ruleset}[/bold], {rules.players} players, seed {seed}. "
        "You are seat 0."
    )
    for line in game.log:
        text = describe(line, 0)
        if text:
            console.print(f"  {text}", style="dim")
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        if seat == 0:
            show_table(game, 0)
            move = ask_move(game, 0, console.input)
            if move is None:
                console.print("You left the table.")
                break
        else:
            move = opponents[seat].choose(game.view(seat, log=True), game.legal_moves())
        for event in game.play(move):
            text = describe(event, 0)
            if text:
                console.print(f"  {text}")
    if game.is_over and game.result is not None:
        result = game.result
        won = result.winner == 0
        console.rule("[bold green]You win![/bold green]" if won else "Game over")
        console.print(f"Standings: {list(result.standings)}   points: {list(result.points)}")
    if save is not None:
        save.write_text(json.dumps(game_record(game), indent=1))
        console.print(f"Saved to {save}")


def game_record(game: Game) -> dict[str, Any]:
    """A game as ruleset + seed + moves (the persistence and replay format)."""
    return {"rules": game.rules.to_dict(), "seed": game.seed, "moves": game.moves}


@app.command("replay")
def replay_command(
    path: Annotated[Path, typer.Argument(help="a game record: JSON with rules, seed, moves")],
    seat: Annotated[
        int | None, typer.Option(help="show the game as this seat saw it (default: all hands)")
    ] = None,
) -> None:
    """Replay a recorded game move by move."""
    try:
        record = json.loads(path.read_text())
        rules = Rules.from_dict(record["rules"])
        game = new_game(rules, seed=int(record["seed"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        console.print(f"[red]cannot read {path}: {exc}[/red]")
        raise typer.Exit(2) from None
    for index, move in enumerate(record["moves"], 1):
        mover = game.current_player
        try:
            events = game.play(move)
        except IllegalMove as exc:
            console.print(f"[red]move {index} ({move}) is illegal: {exc.reason}[/red]")
            raise typer.Exit(1) from None
        for event in events:
            text = describe(event, seat, reveal=seat is None)
            if text:
                console.print(f"{index:>4} [dim]seat {mover}[/dim]  {text}")
    check = replay(rules, int(record["seed"]), record["moves"])
    assert check.moves == game.moves
    if game.result is not None:
        console.print(f"Result: {game.result.to_dict()}")


@app.command("rules")
def rules_command(
    ruleset: Annotated[str | None, typer.Argument(help="a ruleset to list settings for")] = None,
) -> None:
    """List the rulesets, or one ruleset's settings with their defaults."""
    if ruleset is None:
        for name in RULESETS:
            console.print(name)
        return
    try:
        settings = Rules.settings_for(ruleset)
    except RulesError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from None
    table = Table("setting", "default", "allowed", "meaning")
    for name, entry in settings.items():
        allowed = entry.get("choices") or "{} to {}".format(*entry["range"])
        table.add_row(name, str(entry["default"]), str(allowed), entry["help"])
    console.print(table)


def _register_extensions() -> None:
    """Commands that live with their packages: the simulation lab, the card room and
    the chat host."""
    from .chat.commands import register as register_chat
    from .server.commands import register as register_server
    from .sim.commands import register as register_sim

    register_sim(app)
    register_server(app)
    register_chat(app)


_register_extensions()


def main() -> None:
    app()


if __name__ == "__main__":
    sys.exit(main())
