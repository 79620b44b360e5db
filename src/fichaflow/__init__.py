"""FichaFlow: dominó venezolano y dominicano para jugar, anotar y aprender."""

__version__ = "0.1.0"
