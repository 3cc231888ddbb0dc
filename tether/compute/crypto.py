"""Key pairs' keys (the compute API process): generated key pairs and
fingerprints, with pyca/cryptography, in Nova's formats."""

import base64
import datetime
import hashlib

from cryptography import exceptions as crypto_exc
from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509 import oid

from tether.compute import keypair_exception

BITS = 2048
# Microsoft's User Principal Name, the otherName WinRM matches a
# certificate's user by (Nova's generated x509 certificates carry it).
UPN = x509.ObjectIdentifier('1.3.6.1.4.1.311.20.2.3')


def _colons(digest):
    return ':'.join(digest[i:i + 2] for i in range(0, len(digest), 2))


def ssh_fingerprint(public_key):
    """The MD5 fingerprint of an OpenSSH public key, as Nova gives it
    (``aa:bb:...``); InvalidKeypair if it is no such key."""
    try:
        serialization.load_ssh_public_key(public_key.encode('utf-8'))
        blob = base64.b64decode(public_key.split()[1])
    except (ValueError, IndexError, crypto_exc.UnsupportedAlgorithm):
        raise keypair_exception.InvalidKeypair(
            reason='failed to generate fingerprint')
    return _colons(hashlib.md5(blob, usedforsecurity=False).hexdigest())


def x509_fingerprint(pem):
    """The SHA-1 fingerprint of a PEM certificate, as Nova gives it."""
    try:
        cert = x509.load_pem_x509_certificate(pem.encode('utf-8'))
    except (ValueError, TypeError) as exc:
        raise keypair_exception.InvalidKeypair(
            reason='failed to generate X509 fingerprint. Error message: %s'
                   % exc)
    return _colons(cert.fingerprint(hashes.SHA1()).hex())


def fingerprint(public_key, key_type):
    if key_type == 'x509':
        return x509_fingerprint(public_key)
    return ssh_fingerprint(public_key)


def generate_ssh():
    """(private key PEM, OpenSSH public key, fingerprint) of a new RSA
    key."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=BITS)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption()).decode('ascii')
    public = key.public_key().public_bytes(
        serialization.Encoding.OpenSSH,
        serialization.PublicFormat.OpenSSH).decode('ascii')
    public += ' Generated-by-Nova'
    return private, public, ssh_fingerprint(public)


def _upn(user_id):
    # The otherName's value: a DER UTF8String of "<user>@localhost".
    text = ('%s@localhost' % user_id).encode('utf-8')
    if len(text) < 128:
        length = bytes([len(text)])
    else:
        size = (len(text).bit_length() + 7) // 8
        length = bytes([0x80 | size]) + len(text).to_bytes(size, 'big')
    return b'\x0c' + length + text


def generate_x509(user_id):
    """(PKCS#12 of key and certificate in base64, certificate PEM,
    fingerprint): a self-signed client certificate for ``user_id``, valid
    ten years, as Nova makes for WinRM."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=BITS)
    name = x509.Name([x509.NameAttribute(oid.NameOID.COMMON_NAME,
                                         user_id)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder()
            .subject_name(name).issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now)
            .not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.ExtendedKeyUsage(
                [oid.ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
            .add_extension(x509.SubjectAlternativeName(
                [x509.OtherName(UPN, _upn(user_id))]), critical=False)
            .sign(key, hashes.SHA256()))
    pem = cert.public_bytes(serialization.Encoding.PEM).decode('ascii')
    bundle = pkcs12.serialize_key_and_certificates(
        None, key, cert, None, serialization.NoEncryption())
    return (base64.b64encode(bundle).decode('ascii'), pem,
            x509_fingerprint(pem))
