"""Flavors as the compute API serves them (API process)."""

from oslo_utils import uuidutils

from tether.db.compute import flavor as db_flavors

SORT_KEYS = db_flavors.SORT_KEYS


def get(context, flavorid):
    """A flavor by its ID; FlavorNotFound if it is not visible: a
    private flavor is seen by administrators and the projects given
    access to it (``addTenantAccess``), as in Nova."""
    return db_flavors.get(
        context, flavorid,
        project_id=None if context.is_admin else context.project_id)


def get_all(context, is_public=True, min_memory_mb=None, min_root_gb=None,
            sort_key='flavorid', sort_dir='asc', limit=None, marker=None):
    """A page of flavors; ``is_public`` (None: all, False: the private
    ones) counts for admins only, others always get the public flavors;
    True adds the private flavors the caller's project has access to,
    as in Nova."""
    if not context.is_admin:
        is_public = True
    return db_flavors.get_all(
        context, is_public=is_public, min_memory_mb=min_memory_mb,
        min_root_gb=min_root_gb, sort_key=sort_key, sort_dir=sort_dir,
        limit=limit, marker=marker, project_id=context.project_id)


def create(context, name, memory_mb, vcpus, root_gb=0, ephemeral_gb=0,
           swap=0, rxtx_factor=1.0, is_public=True, flavorid=None,
           description=None):
    """Create a flavor; a new UUID is its ID unless one is given.

    FlavorExists (a conflict) when the name or the ID is taken.
    """
    if flavorid is None or flavorid == 'auto':
        flavorid = uuidutils.generate_uuid()
    return db_flavors.create(context, {
        'flavorid': flavorid, 'name': name, 'memory_mb': memory_mb,
        'vcpus': vcpus, 'root_gb': root_gb, 'ephemeral_gb': ephemeral_gb,
        'swap': swap, 'rxtx_factor': rxtx_factor, 'is_public': is_public,
        'disabled': False, 'description': description,
    })


def update_description(context, flavorid, description):
    """Change a flavor's description (2.55); the flavor after."""
    return db_flavors.update_description(context, flavorid, description)


def delete(context, flavorid):
    """Delete a flavor; the servers made of it keep their copy of it."""
    db_flavors.destroy(context, flavorid)
