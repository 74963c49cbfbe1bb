"""A throwaway CA and a 127.0.0.1 server certificate, made once per test process.

kubectl (client-go) sends bearer tokens only over TLS, so the server speaks HTTPS to be reached
the way a real cluster is. The ``openssl`` command makes the keys; nothing is kept after the run.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path


@dataclass(frozen=True)
class Certificates:
    ca_file: Path
    cert_file: Path
    key_file: Path

    @property
    def ca_pem(self) -> bytes:
        return self.ca_file.read_bytes()


def available() -> bool:
    return shutil.which("openssl") is not None


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


@cache
def certificates() -> Certificates:
    folder = Path(tempfile.mkdtemp(prefix="dgd-test-apiserver-tls-"))
    atexit.register(shutil.rmtree, folder, True)
    ca_key, ca, key, csr, cert = (
        folder / "ca.key",
        folder / "ca.crt",
        folder / "server.key",
        folder / "server.csr",
        folder / "server.crt",
    )
    ext = folder / "server.ext"
    ext.write_text(
        "basicConstraints=CA:FALSE\n"
        "keyUsage=digitalSignature,keyEncipherment\n"
        "extendedKeyUsage=serverAuth\n"
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
    )
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _openssl(
        "req",
        "-x509",
        *ec,
        "-keyout",
        str(ca_key),
        "-out",
        str(ca),
        "-days",
        "2",
        "-subj",
        "/CN=dgd-test-ca",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    )
    _openssl("req", "-new", *ec, "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    _openssl(
        "x509",
        "-req",
        "-in",
        str(csr),
        "-CA",
        str(ca),
        "-CAkey",
        str(ca_key),
        "-CAcreateserial",
        "-out",
        str(cert),
        "-days",
        "2",
        "-extfile",
        str(ext),
    )
    return Certificates(ca, cert, key)
