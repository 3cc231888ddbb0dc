"""Queries on flavors; rows leave this module as Flavor objects."""

from oslo_db import exception as db_exc
from oslo_serialization import jsonutils
import sqlalchemy as sa

from tether.compute import exception
from tether.compute import flavor_exception
from tether.db import cas
from tether.db.compute import models
from tether.db import keyset
from tether.db import session
from tether.objects.compute import flavor as flavor_obj

db = session.COMPUTE
Flavor = models.Flavor
FlavorProject = models.FlavorProject

SORT_KEYS = ('flavorid', 'name', 'memory_mb', 'vcpus', 'root_gb',
             'ephemeral_gb', 'swap', 'rxtx_factor', 'created_at', 'id')


def _public_or_shared_with(project_id):
    """Public, or private with access given to ``project_id`` (Nova)."""
    return sa.or_(Flavor.is_public.is_(True), sa.exists().where(
        FlavorProject.flavor_id == Flavor.id,
        FlavorProject.project_id == project_id))


@db.reader
def get(context, flavorid, project_id=None):
    """A flavor; with ``project_id``, only if it is public or that
    project has access to it (else FlavorNotFound)."""
    q = sa.select(Flavor).where(Flavor.flavorid == flavorid)
    if project_id is not None:
        q = q.where(_public_or_shared_with(project_id))
    row = context.session.scalars(q).first()
    if row is None:
        raise exception.FlavorNotFound(flavor_id=flavorid)
    return flavor_obj.Flavor.from_db(row)


@db.reader
def get_all(context, is_public=True, min_memory_mb=None, min_root_gb=None,
            sort_key='flavorid', sort_dir='asc', limit=None, marker=None,
            project_id=None):
    """Flavors; ``is_public`` None lists private ones too; True (with
    ``project_id``) the public ones and the private ones the project has
    access to, as Nova lists them."""
    q = sa.select(Flavor).where(Flavor.disabled.is_(False))
    if is_public and project_id is not None:
        q = q.where(_public_or_shared_with(project_id))
    elif is_public is not None:
        q = q.where(Flavor.is_public.is_(is_public))
    if min_memory_mb is not None:
        q = q.where(Flavor.memory_mb >= min_memory_mb)
    if min_root_gb is not None:
        q = q.where(Flavor.root_gb >= min_root_gb)
    rows = keyset.page(
        context.session, q, Flavor, [sort_key], [sort_dir],
        marker=marker, marker_key=Flavor.flavorid,
        not_found=lambda m: exception.InvalidInput(
            reason='marker [%s] not found' % m),
        limit=limit)
    return [flavor_obj.Flavor.from_db(row) for row in rows]


@db.writer
def create(context, values):
    row = Flavor(**values)
    try:
        with context.session.begin_nested():
            context.session.add(row)
    except db_exc.DBDuplicateEntry as exc:
        column = 'name' if 'name' in (exc.columns or []) else 'ID'
        raise exception.FlavorExists(
            what=column, value=values['name' if column == 'name'
                                      else 'flavorid'])
    return flavor_obj.Flavor.from_db(row)


@db.writer
def destroy(context, flavorid):
    # The access rows go too (the foreign key cascades where the
    # database enforces it; deleted here for the others).
    context.session.execute(sa.delete(FlavorProject).where(
        FlavorProject.flavor_id.in_(
            sa.select(Flavor.id).where(Flavor.flavorid == flavorid))))
    result = context.session.execute(
        sa.delete(Flavor).where(Flavor.flavorid == flavorid))
    if result.rowcount == 0:
        raise exception.FlavorNotFound(flavor_id=flavorid)


@db.writer
def update_description(context, flavorid, description):
    """Set a flavor's description (one UPDATE); the flavor after."""
    if not cas.update(context, Flavor, [Flavor.flavorid == flavorid],
                      {'description': description}):
        raise exception.FlavorNotFound(flavor_id=flavorid)
    return flavor_obj.Flavor.from_db(context.session.scalars(
        sa.select(Flavor).where(Flavor.flavorid == flavorid)).one())


@db.writer
def update_extra_specs(context, flavorid, change):
    """Change a flavor's extra specs with ``change(old) -> new`` (which
    may raise); the new extra specs.

    The row is locked while ``change`` runs (on SQLite the writer lock
    serializes the transaction anyway), and the UPDATE names the extra
    specs it read, so that no concurrent change is lost: if they changed
    meanwhile, FlavorExtraSpecUpdateCreateFailed (409, as Nova).
    """
    row = context.session.execute(
        sa.select(Flavor.id, Flavor.extra_specs)
        .where(Flavor.flavorid == flavorid).with_for_update()).first()
    if row is None:
        raise exception.FlavorNotFound(flavor_id=flavorid)
    before = row.extra_specs
    new = change(jsonutils.loads(before) if before else {})
    where = [Flavor.id == row.id,
             Flavor.extra_specs.is_(None) if before is None
             else Flavor.extra_specs == before]
    if not cas.update(context, Flavor, where,
                      {'extra_specs': jsonutils.dumps(new)}):
        raise flavor_exception.FlavorExtraSpecUpdateCreateFailed(
            flavor_id=flavorid)
    return new
