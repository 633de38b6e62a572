"""Sign-in throttling: after LOGIN_FAILURE_LIMIT (5) wrong passwords for one
username from one address, even the right password is refused for LOGIN_COOLOFF_MINUTES, with
a clear message; the API token, the login page and the admin share the count. Tests start with
no attempts: they are rows of the test database, rolled back after each test."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from rest_framework.test import APIClient

TOKEN = "/api/v1/auth/token/"
LOGIN = "/accounts/login/"
RIGHT = "pass-word-123"  # tests/factories.py


def _token(username, password):
    return APIClient().post(TOKEN, {"username": username, "password": password}, format="json")


def _page(username, password):
    return Client().post(LOGIN, {"username": username, "password": password})


def test_thirty_wrong_passwords_then_the_right_one_get_no_token(people, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    answers = [_token("alice", f"guess-{n}") for n in range(30)]
    assert [a.status_code for a in answers[:4]] == [400] * 4
    assert {a.status_code for a in answers[4:]} == {429}  # the fifth failure locks
    right = _token("alice", RIGHT)
    assert right.status_code == 429 and "Too many failed sign-ins" in right.json()["detail"]
    assert set(right.json()) == {"detail"} and "token" not in right.json()


def test_the_login_page_locks_out_too_with_a_clear_page(people):
    for n in range(4):
        assert _page("bob", f"guess-{n}").status_code == 200  # the form again, with its error
    assert _page("bob", "guess-4").status_code == 429  # the fifth failure locks
    locked = _page("bob", RIGHT)
    assert locked.status_code == 429 and "Too many failed sign-ins" in locked.content.decode()
    assert "_auth_user_id" not in locked.client.session
    assert _token("bob", RIGHT).status_code == 429  # one count for every door


def test_others_are_not_locked_out_and_the_lock_ends(people):
    for n in range(5):
        _token("alice", f"guess-{n}")
    assert _token("alice", RIGHT).status_code == 429
    assert _token("bob", RIGHT).status_code == 200
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )
    assert _token("alice", RIGHT).status_code == 200


def test_a_success_resets_the_count(people):
    for n in range(4):
        _token("alice", f"guess-{n}")
    assert _token("alice", RIGHT).status_code == 200
    for n in range(4):
        assert _token("alice", f"guess-again-{n}").status_code == 400
    assert _token("alice", RIGHT).status_code == 200


@pytest.mark.parametrize("limit", [2])
def test_the_limit_is_a_setting(people, settings, limit):
    settings.AXES_FAILURE_LIMIT = limit
    for n in range(limit):
        _token("alice", f"guess-{n}")
    assert _token("alice", RIGHT).status_code == 429


# --- the address counted (muster/proxies.py) ------------------------------------------------------


def _from(address, forwarded=None, username="alice", password="wrong-guess"):
    headers = {"REMOTE_ADDR": address}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return Client().post(LOGIN, {"username": username, "password": password}, **headers)


def test_without_a_proxy_a_written_forwarded_header_changes_nothing(people, settings):
    assert settings.TRUSTED_PROXY_COUNT == 0  # the default: no proxy trusted
    for n in range(5):
        _from(
            "198.51.100.7", forwarded=f"203.0.113.{n}"
        )  # a new "address" each time, written by the client
    assert _from("198.51.100.7", forwarded="203.0.113.99", password=RIGHT).status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.7"}
    assert _from("198.51.100.8", password=RIGHT).status_code == 302  # another machine: not locked


def test_behind_a_proxy_the_address_it_appended_is_counted_never_the_clients_own(people, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "127.0.0.1"
    for n in range(5):  # the client writes a fresh address each time; nginx appends the real one
        _from(proxy, forwarded=f"203.0.113.{n}, 198.51.100.7")
    assert _from(proxy, forwarded="198.51.100.7", password=RIGHT).status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.7"}
    assert (
        _from(proxy, forwarded="198.51.100.7, 198.51.100.8", password=RIGHT).status_code == 302
    )  # someone else


def test_behind_two_proxies_the_outer_ones_entry_counts(people, settings):
    settings.TRUSTED_PROXY_COUNT = 2  # a load balancer, then nginx
    for n in range(5):
        _from("10.0.0.2", forwarded=f"203.0.113.{n}, 198.51.100.7, 10.0.0.1")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.7"}


@pytest.mark.parametrize("forwarded", [None, "", "not-an-address"])
def test_a_proxy_that_sends_no_usable_header_counts_everyone_under_its_own_address(
    people, settings, forwarded, caplog
):
    settings.TRUSTED_PROXY_COUNT = 1
    _from("127.0.0.1", forwarded=forwarded)
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["127.0.0.1"]


# --- the password-change form ---------------------------------------------------------------------

CHANGE = "/accounts/password/change/"


def _change(client, old, new="a-new-pass-word-456"):
    return client.post(CHANGE, {"old_password": old, "new_password1": new, "new_password2": new})


def test_wrong_old_passwords_on_the_change_form_lock_out_like_sign_in(people):
    """A stolen session could try old passwords without end: now they count like sign-ins."""
    client = Client()
    client.force_login(people["alice"])
    for n in range(4):
        answer = _change(client, f"guess-{n}")
        assert (
            answer.status_code == 200
            and "old password was entered incorrectly" in answer.content.decode()
        )
    assert _change(client, "guess-4").status_code == 429  # the fifth failure locks
    locked = _change(client, RIGHT)
    assert locked.status_code == 429 and "Too many failed sign-ins" in locked.content.decode()
    people["alice"].refresh_from_db()
    assert people["alice"].check_password(RIGHT)  # unchanged
    assert _token("alice", RIGHT).status_code == 429  # one count for every door
    assert _token("bob", RIGHT).status_code == 200


def test_the_right_old_password_still_changes_it(people):
    client = Client()
    client.force_login(people["bob"])
    answer = _change(client, RIGHT)
    assert answer.status_code == 302
    people["bob"].refresh_from_db()
    assert people["bob"].check_password("a-new-pass-word-456")
