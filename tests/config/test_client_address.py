"""The client's address: a forwarded one is believed only from a trusted proxy."""

import pytest
from django.test import RequestFactory

from config.client_address import client_ip, parse_trusted_proxies


def _request(remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_client_ip_ignores_forwarded_for_from_an_untrusted_peer(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]

    assert client_ip(_request("192.0.2.7", "203.0.113.1")) == "192.0.2.7"


def test_client_ip_ignores_forwarded_for_when_no_proxy_is_trusted(settings):
    settings.TRUSTED_PROXIES = []

    assert client_ip(_request("127.0.0.1", "203.0.113.1")) == "127.0.0.1"


def test_client_ip_takes_the_address_the_trusted_proxy_saw(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]

    assert client_ip(_request("127.0.0.1", "198.51.100.4")) == "198.51.100.4"


def test_client_ip_skips_what_the_client_wrote_before_the_proxy_appended(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]

    assert client_ip(_request("127.0.0.1", "203.0.113.1, 198.51.100.4")) == "198.51.100.4"


def test_client_ip_walks_back_over_a_chain_of_trusted_proxies(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]

    assert client_ip(_request("127.0.0.1", "203.0.113.1, 198.51.100.4, 10.1.2.3")) == (
        "198.51.100.4"
    )


def test_client_ip_stops_at_a_garbled_entry(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]

    assert client_ip(_request("127.0.0.1", "198.51.100.4, not-an-ip, 10.1.2.3")) == "10.1.2.3"


def test_trusted_proxies_setting_refuses_a_wrong_address():
    with pytest.raises(ValueError, match="not an address"):
        parse_trusted_proxies(["127.0.0.1", "nginx.local"])
