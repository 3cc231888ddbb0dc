"""Quota sets and quota class sets as JSON, per microversion: the
resources of Nova's answer at that version, in its order."""

from tether.api.compute.schemas import quota_class_sets as class_schema
from tether.api.compute.schemas import quota_sets as schema
from tether.api.compute import versions
from tether.api import microversion


def _names(req):
    if microversion.at_least(req, versions.PERSONALITY_QUOTAS_REMOVED):
        return schema.V2_57
    if microversion.at_least(req, versions.NETWORK_QUOTAS_REMOVED):
        return schema.V2_36
    return schema.ALL


def _class_names(req):
    if microversion.at_least(req, versions.PERSONALITY_QUOTAS_REMOVED):
        return schema.V2_57
    if microversion.at_least(req, versions.QUOTA_CLASS_SERVER_GROUPS):
        return schema.V2_36
    return class_schema.SHOWN


def _pick(names, values, id_=None):
    out = {} if id_ is None else {'id': str(id_)}
    out.update((name, values[name]) for name in names)
    return out


def quota_set(req, values, project_id=None):
    """``{'quota_set': ...}`` of ``values`` ({resource: limit, or
    {'limit', 'in_use', 'reserved'}}), with the project's id if given."""
    return {'quota_set': _pick(_names(req), values, project_id)}


def quota_class_set(req, values, class_name=None):
    return {'quota_class_set': _pick(_class_names(req), values,
                                     class_name)}
