"""Fixtures shared across the test folders: Chromium and screenshots for the browser tests."""

pytest_plugins = ["tests.browser"]
