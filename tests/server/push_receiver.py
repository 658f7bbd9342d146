"""A push service and a browser in one, on this machine: it takes what the server posts,
checks the VAPID signature against the server's public key and decrypts the message
with the browser's own keys (RFC 8291), as a real browser would. No outside service."""

from __future__ import annotations

import base64
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One message as the browser reads it, and what the push service saw of it."""

    payload: dict[str, str]
    ttl: str | None
    signed_by: str
    claims: dict[str, object]


@dataclass
class PushReceiver:
    """Start it, subscribe with `subscription()`, read `received` (or `wait_for`)."""

    gone: bool = False
    """Answer 410 Gone, as a push service does for a subscription the browser dropped."""
    received: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = b"\x11" * 16
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status = 410 if receiver.gone else receiver.take(self.headers, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/push/abc"

    def subscription(self) -> dict[str, object]:
        """What `PushManager.subscribe` gives a page: endpoint and keys."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}

    def take(self, headers: object, body: bytes) -> int:
        get = headers.get  # type: ignore[attr-defined]
        try:
            scheme, _, params = str(get("Authorization", "")).partition(" ")
            fields = dict(part.strip().split("=", 1) for part in params.split(","))
            token, signer = fields["t"], fields["k"]
            if scheme != "vapid" or get("Content-Encoding") != "aes128gcm":
                raise ValueError("not a VAPID-signed aes128gcm message")
            claims = verify_jwt(token, signer)
            plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        except (KeyError, ValueError, InvalidSignature) as error:
            self.refused.append(str(error))
            return 400
        with self.arrived:
            self.received.append(Received(json.loads(plain), get("TTL"), signer, claims))
            self.arrived.notify_all()
        return 201

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.received) >= count, timeout)
        return list(self.received)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def verify_jwt(token: str, public_key: str) -> dict[str, object]:
    """The claims of an ES256 JWT signed by the key (raises InvalidSignature otherwise)."""
    header, claims, signature = token.split(".")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    found: dict[str, object] = json.loads(unb64url(claims))
    return found
