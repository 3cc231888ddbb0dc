"""Flavor extra specs as the compute API changes them (API process):
merged, one key set or deleted, each change one conditional UPDATE of
the flavor."""

from tether.compute.api import flavor_extra_spec_rules
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


def update(context, flavorid, specs, validate=False):
    """Merge ``specs`` (strings) into the flavor's; the extra specs
    after. With ``validate`` (compute 2.86), each key and value is
    checked first, as Nova checks them (FlavorExtraSpecInvalid)."""
    if validate:
        for key, value in specs.items():
            flavor_extra_spec_rules.check(key, value)
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
