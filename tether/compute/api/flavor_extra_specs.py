"""Flavor extra specs as the compute API changes them (API process):
merged, one key set or deleted, each change one conditional UPDATE of
the flavor."""

from tether.compute.api import flavors
from tether.compute import flavor_exception
from tether.db.compute import flavor as db_flavors


def get_all(context, flavorid):
    """The extra specs of a flavor the caller may see."""
    return flavors.get(context, flavorid).extra_specs


def get_key(context, flavorid, key):
    specs = get_all(context, flavorid)
    if key not in specs:
        raise flavor_exception.FlavorExtraSpecNotFound(flavor_id=flavorid,
                                                       key=key)
    return specs[key]


def update(context, flavorid, specs):
    """Merge ``specs`` into the flavor's; the extra specs after."""
    return db_flavors.update_extra_specs(
        context, flavorid, lambda old: dict(old, **specs))


def delete_key(context, flavorid, key):
    """Remove one key; FlavorExtraSpecNotFound if the flavor has none."""
    def without(old):
        if key not in old:
            raise flavor_exception.FlavorExtraSpecNotFound(
                flavor_id=flavorid, key=key)
        return {k: v for k, v in old.items() if k != key}
    db_flavors.update_extra_specs(context, flavorid, without)
