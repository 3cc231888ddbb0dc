"""The exceptions both services share: the base every domain exception
derives from, the kinds the API maps to HTTP statuses (api/fault.py),
and the errors of the shared layers (RPC pins, qemu-img).

Domain exceptions name the problem and carry no HTTP status. Each has a
stable ``error_code`` that API error bodies carry (doc/source/errors.rst
lists them); each service's exceptions are beside it
(tether/volume/exception.py, tether/compute/exception.py).
"""

# Every shared kind: each service's exception module names them again
# (``from tether.exception import *``), so that its code names one
# module.
__all__ = [
    'TetherException', 'Invalid', 'InvalidInput', 'NotFound', 'Forbidden',
    'PolicyNotAuthorized', 'Conflict', 'QuotaExceeded', 'OperationFailed',
    'ServiceUnavailable', 'ServiceTooOld', 'ProcessFailed', 'ImageLocked',
    'ImageUnreadable', 'ImageUnsafe', 'ImageNotFound', 'ImageNotAuthorized',
    'ImageNameAmbiguous', 'ImageServiceUnavailable', 'ImageRefused',
    'ImageLimitExceeded', 'ImageCorrupt',
]


class TetherException(Exception):
    msg_fmt = 'An unknown error occurred.'
    error_code = 'tether.error'

    def __init__(self, message=None, **kwargs):
        self.kwargs = kwargs
        if message is None:
            try:
                message = self.msg_fmt % kwargs
            except (KeyError, TypeError, ValueError):
                message = self.msg_fmt
        self.msg = message
        super().__init__(message)


# The kinds of problem, each answered with one HTTP status ------------------

class Invalid(TetherException):
    """The request cannot be done as it is (400)."""
    msg_fmt = 'Unacceptable parameters.'
    error_code = 'tether.invalid'


class InvalidInput(Invalid):
    msg_fmt = 'Invalid input received: %(reason)s'
    error_code = 'tether.invalid_input'


class NotFound(TetherException):
    """What the request names does not exist, or is not the caller's to
    see (404)."""
    msg_fmt = 'Resource could not be found.'
    error_code = 'tether.not_found'


class Forbidden(TetherException):
    """The caller may not do this (403)."""
    msg_fmt = 'Not authorized.'
    error_code = 'tether.forbidden'


class PolicyNotAuthorized(Forbidden):
    msg_fmt = 'Policy does not allow %(action)s to be performed.'
    error_code = 'tether.policy.not_authorized'


class Conflict(TetherException):
    """The resource's state does not allow it now (409)."""
    msg_fmt = 'Conflict with the current state of the resource.'
    error_code = 'tether.conflict'


class QuotaExceeded(TetherException):
    """A quota does not allow it (413)."""
    msg_fmt = 'Quota exceeded.'
    error_code = 'tether.quota.exceeded'


class OperationFailed(TetherException):
    """Work the API waited for failed; the resource's state says what is
    left, and the message says what to do (500)."""
    msg_fmt = 'The operation failed: %(reason)s'
    error_code = 'tether.operation_failed'


class ServiceUnavailable(TetherException):
    """Another service did not answer; the request may be tried again
    later (503)."""
    msg_fmt = 'A service did not answer: %(reason)s'
    error_code = 'tether.service_unavailable'


# Errors of the shared layers -------------------------------------------------

class ServiceTooOld(Conflict):
    """An RPC version pin (rolling upgrade) holds the client below what
    the request needs: 409, as Nova answers a request its not yet upgraded
    compute hosts cannot serve."""
    msg_fmt = ('%(what)s needs %(binary)s RPC version %(version)s; '
               '[upgrade_levels] %(option)s holds the API at %(pinned)s '
               'while a rolling upgrade of %(binary)s is not finished')
    error_code = 'tether.rpc.version_pinned'


class ProcessFailed(TetherException):
    msg_fmt = 'Command %(cmd)s failed: %(reason)s'
    error_code = 'tether.process.failed'


class ImageLocked(ProcessFailed):
    """qemu-img could not take the write lock: a running guest holds it."""
    msg_fmt = ('%(path)s is locked by another process (a running guest '
               'holds it).')
    error_code = 'tether.image.locked'


class ImageUnreadable(TetherException):
    msg_fmt = 'Cannot read the image %(path)s: %(reason)s'
    error_code = 'tether.image.unreadable'


class ImageUnsafe(Invalid):
    """An image a user supplied is not what it claims, or has what would
    make qemu-img read other files (a backing file, a data file, vmdk
    extents): it is not converted."""
    msg_fmt = 'The image is refused: %(reason)s'
    error_code = 'tether.image.unsafe'


# The image API (Glance), as both services call it (tether.images) ----------

class ImageNotFound(NotFound):
    msg_fmt = 'Image %(image_id)s could not be found.'
    error_code = 'tether.image.not_found'


class ImageNotAuthorized(Forbidden):
    msg_fmt = 'The image API does not let the caller use image %(image_id)s.'
    error_code = 'tether.image.not_authorized'


class ImageNameAmbiguous(Conflict):
    msg_fmt = ('Multiple images are named %(name)s: name the one to use by '
               'its id.')
    error_code = 'tether.image.ambiguous_name'


class ImageServiceUnavailable(ServiceUnavailable):
    msg_fmt = 'The image API did not answer: %(reason)s'
    error_code = 'tether.image.service_unavailable'


class ImageRefused(Invalid):
    """The image API refused to create or store an image as asked."""
    msg_fmt = 'The image API refused the request: %(reason)s'
    error_code = 'tether.image.refused'


class ImageLimitExceeded(QuotaExceeded):
    """The image API's quota of the caller's project is used up."""
    msg_fmt = 'The image API refused the request over a limit: %(reason)s'
    error_code = 'tether.image.over_limit'


class ImageCorrupt(TetherException):
    """What was downloaded is not what the image API recorded (its size or
    hash differ): it is not used."""
    msg_fmt = 'The data of image %(image_id)s is not what it should be: ' \
              '%(reason)s'
    error_code = 'tether.image.corrupt'
