"""Key pairs as the compute API keeps them (API process): a key pair is
imported (a public key, or an X.509 certificate) or generated, and
counted against the user's ``key_pairs`` quota.

tether.compute.crypto (pyca/cryptography and its OpenSSL bindings, about
6 MiB) is imported where a key is read or made: an API process that
serves no key pair's creation does not load it.
"""

from tether.compute import quota
from tether.db.compute import key_pair as db_key_pairs
from tether.objects import fields


def get(context, user_id, name):
    """The user's key pair of that name, or KeypairNotFound."""
    return db_key_pairs.get(context, user_id, name)


def get_all(context, user_id, limit=None, marker=None):
    return db_key_pairs.get_all(context, user_id, limit=limit,
                                marker=marker)


def _create(context, user_id, name, public_key, key_type, fingerprint):
    # As Nova: the limit of the user in the caller's project (the user's
    # own, the project's, or the default).
    limit = quota.limit_of(context, 'key_pairs', context.project_id,
                           user_id)
    return db_key_pairs.create(context, {
        'user_id': user_id, 'name': name, 'public_key': public_key,
        'type': key_type, 'fingerprint': fingerprint,
    }, limit)


def import_key_pair(context, user_id, name, public_key,
                    key_type=fields.KeyPairType.SSH):
    """Store a public key (ssh) or certificate (x509) the user has;
    InvalidKeypair if it cannot be read."""
    from tether.compute import crypto  # see the module's docstring

    return _create(context, user_id, name, public_key, key_type,
                   crypto.fingerprint(public_key, key_type))


def create_key_pair(context, user_id, name,
                    key_type=fields.KeyPairType.SSH):
    """Generate a key pair: (the key pair, its private key), which is
    given once and never kept (for x509, a PKCS#12 of the key and the
    certificate, in base64)."""
    from tether.compute import crypto  # see the module's docstring

    if key_type == fields.KeyPairType.X509:
        private, public, fingerprint = crypto.generate_x509(user_id)
    else:
        private, public, fingerprint = crypto.generate_ssh()
    return (_create(context, user_id, name, public, key_type, fingerprint),
            private)


def delete(context, user_id, name):
    db_key_pairs.destroy(context, user_id, name)
