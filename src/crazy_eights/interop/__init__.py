"""Adapters to research frameworks: OpenSpiel (``openspiel``) and PettingZoo (``pettingzoo``).

They need the ``rl`` extra (``pip install crazy-eights[rl]``); ``encoding`` needs nothing.
"""
