"""The declarative base every service declares its tables on, so one schema holds them all."""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass
