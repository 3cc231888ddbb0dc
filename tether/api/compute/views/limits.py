"""The compute API's absolute limits as JSON, per microversion (Nova's
names: each resource's limits, and what is in use)."""

from tether.api.compute.schemas import limits as schema
from tether.api.compute import versions
from tether.api import microversion


def _gone(req):
    if microversion.at_least(req, versions.PERSONALITY_QUOTAS_REMOVED):
        return schema.GONE_V2_57
    if microversion.at_least(req, versions.IMAGE_META_PROXY_REMOVED):
        return schema.GONE_V2_39
    if microversion.at_least(req, versions.NETWORK_QUOTAS_REMOVED):
        return schema.GONE_V2_36
    return ()


def limits(req, usages):
    """``{'limits': ...}`` of ``usages`` ({resource: {'limit', 'in_use',
    ...}}, tether.compute.quota.usages)."""
    absolute = {}
    for resource, names in schema.MAX.items():
        for name in names:
            absolute[name] = usages[resource]['limit']
    for resource, name in schema.USED.items():
        absolute[name] = usages[resource]['in_use']
    gone = _gone(req)
    return {'limits': {
        'rate': [],
        'absolute': {k: v for k, v in sorted(absolute.items())
                     if k not in gone}}}
