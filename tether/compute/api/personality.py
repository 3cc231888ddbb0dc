"""Personality files (``personality``, microversions 2.1 to 2.56): what
Nova checks of them against the quota limits, as it checks them.

Nova writes them into a server's config drive; tether has no config
drive or metadata service, so a server create or a rebuild accepts them
(Nova's clients send them), checks them here, and keeps them nowhere.
"""

import base64

from tether.compute import quota
from tether.compute import quota_exception


def _over(allowed, value):
    return 0 <= allowed < value


def check(context, files):
    """Raise a Personality*Exceeded (403) if ``files`` (the request's
    ``personality``: path and base64 contents, the schema checked) passes
    a limit of the caller's (its project's, or its own)."""
    if not files:
        return
    limits = quota.limits(context, context.project_id, context.user_id)
    if _over(limits['injected_files'], len(files)):
        raise quota_exception.PersonalityFileLimitExceeded()
    for item in files:
        allowed = limits['injected_file_path_bytes']
        if _over(allowed, len(item.get('path', ''))):
            raise quota_exception.PersonalityFilePathLimitExceeded(
                allowed=allowed)
        allowed = limits['injected_file_content_bytes']
        contents = base64.b64decode(item.get('contents', ''))
        if _over(allowed, len(contents)):
            raise quota_exception.PersonalityFileContentLimitExceeded(
                allowed=allowed)
