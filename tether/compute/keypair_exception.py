"""Exceptions of the compute service about key pairs (``/os-keypairs``)
and their quota."""

from tether import exception


class KeypairNotFound(exception.NotFound):
    msg_fmt = 'Keypair %(name)s not found for user %(user_id)s'
    error_code = 'compute.keypair.not_found'


class KeyPairExists(exception.Conflict):
    msg_fmt = "Key pair '%(key_name)s' already exists."
    error_code = 'compute.keypair.exists'


class InvalidKeypair(exception.Invalid):
    msg_fmt = 'Keypair data is invalid: %(reason)s'
    error_code = 'compute.keypair.invalid'


class KeypairLimitExceeded(exception.Forbidden):
    """Nova answers a key pair beyond the quota with 403, not 413."""
    msg_fmt = 'Quota exceeded, too many key pairs.'
    error_code = 'compute.keypair.limit_exceeded'
