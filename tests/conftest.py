"""Fixtures shared across the test folders: Chromium for the browser tests."""

pytest_plugins = ["tests.browser"]
