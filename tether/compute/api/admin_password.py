"""The administrative password (``adminPass``) a server create or a
rebuild answers with, as Nova does while ``enable_instance_password`` is
true: the one the request gave, or one made up of letters and digits
that cannot be read as one another.

Nothing keeps it: tether's guests run no agent and get no config drive,
so no password ever reaches a guest (the option's help says so), and
the API never shows it again.
"""

import secrets

from tether.conf import CONF

# Neither 0/O, 1/l/I nor other look-alikes: a person copies it by hand.
_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'


def generate(length=None):
    length = length or CONF.password_length
    return ''.join(secrets.choice(_ALPHABET) for _ in range(length))


def for_response(requested):
    """``adminPass`` for the response of a request that gave
    ``requested`` (None when it gave none), or None while the option is
    off."""
    if not CONF.enable_instance_password:
        return None
    return requested if requested is not None else generate()
