"""Compute quota classes (``/os-quota-class-sets/{id}``), in the API
process. The ``default`` class's limits are the defaults of every
project (over the ``[quota]`` options); tether gives a request no other
class, so the limits of another are kept and shown, and apply to no
project (as in Nova, where only a request's quota class would)."""

from tether.compute import quota
from tether.db.compute import quota as db_quota


def get(context, class_name):
    return quota.class_limits(context, class_name)


def update(context, class_name, new_limits):
    """Set some limits of a class; its limits after."""
    db_quota.set_class_limits(context, class_name, new_limits)
    return quota.class_limits(context, class_name)
