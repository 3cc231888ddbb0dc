"""Volume quota classes (``/os-quota-class-sets/{class_name}``), in the
API process. The ``default`` class's limits are every project's
defaults (over the options); tether gives a request no other class, so
another's limits are kept and shown, and apply to no project."""

from tether.db.volume import quota as db_quotas
from tether.volume.api import quota_sets
from tether.volume import quota


def get(context, class_name):
    return quota.class_limits(context, class_name)


def update(context, class_name, new_limits):
    """Set some limits of a class (resources tether counts, or
    InvalidInput); its limits after."""
    quota_sets.check_resources(context, new_limits, 'quota class set')
    db_quotas.set_class_limits(context, class_name, new_limits)
    return quota.class_limits(context, class_name)
