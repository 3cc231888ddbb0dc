"""Access of projects to private flavors (API process): listed, added,
removed; each change one INSERT (the unique constraint decides between
two) or one DELETE."""

from tether.compute import flavor_exception
from tether.db.compute import flavor_project as db_access


def get_projects(context, flavorid):
    """The projects with access; FlavorAccessListPublic if the flavor is
    public (every project has access)."""
    is_public, projects = db_access.get_projects(context, flavorid)
    if is_public:
        raise flavor_exception.FlavorAccessListPublic()
    return projects


def add(context, flavorid, project_id, refuse_public=True):
    """Give a project access; the projects with access after."""
    return db_access.add(context, flavorid, project_id,
                         refuse_public=refuse_public)


def remove(context, flavorid, project_id):
    """Take a project's access away; the projects with access after."""
    return db_access.remove(context, flavorid, project_id)
