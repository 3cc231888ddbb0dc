"""Exceptions of the compute service about its quotas: a server beyond
the instances, cores or ram of its project (or user), its metadata and
personality files beyond their limits, and limits that cannot be
set."""

from tether import exception


class TooManyInstances(exception.Forbidden):
    """Nova answers a server create beyond the quota with 403, not 413,
    and this message: each resource over its limit, what was asked, what
    is used and the limit, in the same order."""
    msg_fmt = ('Quota exceeded for %(overs)s: Requested %(req)s, but '
               'already used %(used)s of %(allowed)s %(overs)s')
    error_code = 'compute.server.quota_exceeded'


class QuotaLimitBelowUsage(exception.Invalid):
    msg_fmt = ('Quota limit %(limit)s for %(resource)s must be greater '
               'than or equal to already used and reserved %(minimum)s.')
    error_code = 'compute.quota.below_usage'


class QuotaLimitAboveMaximum(exception.Invalid):
    msg_fmt = ('Quota limit %(limit)s for %(resource)s must be less than '
               'or equal to %(maximum)s.')
    error_code = 'compute.quota.above_maximum'


class PersonalityFileLimitExceeded(exception.Forbidden):
    msg_fmt = 'Personality file limit exceeded'
    error_code = 'compute.server.personality_limit'


class PersonalityFilePathLimitExceeded(exception.Forbidden):
    msg_fmt = 'Personality file path exceeds maximum %(allowed)d'
    error_code = 'compute.server.personality_path_limit'


class PersonalityFileContentLimitExceeded(exception.Forbidden):
    msg_fmt = 'Personality file content exceeds maximum %(allowed)d'
    error_code = 'compute.server.personality_content_limit'


class MetadataLimitExceeded(exception.Forbidden):
    """Nova answers metadata beyond the quota with 403, not 413."""
    msg_fmt = 'Maximum number of metadata items exceeds %(allowed)d'
    error_code = 'compute.server.metadata_limit_exceeded'


class ImageMetadataLimitExceeded(MetadataLimitExceeded):
    msg_fmt = ('Image metadata limit exceeded: an image may have at most '
               '%(allowed)d metadata items (the metadata_items quota).')
    error_code = 'compute.image.metadata_limit_exceeded'
