"""Signing in through the login page, as a person does (django-axes sees a real request)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

PASSWORD = "pass-word-123"  # tests.factories.UserFactory's


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))


def log_out(page) -> None:
    """Log out and wait for the login page the logout sends us to: going on at once would race
    the logout's own navigation (a loaded machine then answered neither in time)."""
    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
