"""The reads of volumes as rows of columns (not ORM objects), which shows
and lists make: a volume's row and its related rows."""

import collections
import functools

import sqlalchemy as sa

from tether.db.volume import models
from tether.objects import fields
from tether.objects.volume import attachment as attachment_obj
from tether.objects.volume import volume as volume_obj
from tether.volume import exception


# One volume by id, the same in one project, the key-value rows of
# ``volume_ids``, their attachments, the columns of every volume.
_Statements = collections.namedtuple(
    '_Statements', 'by_id in_project key_values attached columns')


@functools.cache
def _statements():
    """The statements of a show and a list, built once: a statement made
    per request costs more CPU (its clauses and its cache key) than
    SQLite takes to run it. Plain Core over the tables (no ORM
    entities), each value a bound parameter."""
    volumes = models.Volume.__table__
    types = models.VolumeType.__table__
    type_name = (sa.select(types.c.name)
                 .where(types.c.id == volumes.c.volume_type_id)
                 .scalar_subquery().label('volume_type_name'))
    columns = sa.select(*(type_name if key == 'volume_type_name'
                          else volumes.c[key]
                          for key in volume_obj.Volume._COLUMNS))
    by_id = columns.where(volumes.c.id == sa.bindparam('volume_id'))
    in_project = by_id.where(
        volumes.c.project_id == sa.bindparam('project_id'))
    ids = sa.bindparam('volume_ids', expanding=True)
    # The three key-value tables in one statement, each row tagged with
    # the kind it is.
    key_values = sa.union_all(*(
        sa.select(sa.literal(name).label('kind'), table.c.volume_id,
                  table.c.key, table.c.value)
        .where(table.c.volume_id.in_(ids))
        for name, table in (
            ('metadata', models.VolumeMetadata.__table__),
            ('admin_metadata', models.VolumeAdminMetadata.__table__),
            ('image_metadata', models.VolumeGlanceMetadata.__table__))))
    attachments = models.VolumeAttachment.__table__
    attached = (sa.select(attachments)
                .where(attachments.c.volume_id.in_(ids),
                       attachments.c.attach_status
                       == fields.VolumeAttachStatus.ATTACHED)
                .order_by(attachments.c.attach_time))
    return _Statements(by_id, in_project, key_values, attached, columns)


def row(conn, volume_id, project_id=None):
    """The volume's row (its columns, none of its relations), or
    VolumeNotFound. ``conn``: the session or the connection (a read of
    these statements alone needs no ORM session) that runs it."""
    statements = _statements()
    return _one(conn, statements.by_id, statements.in_project, volume_id,
                project_id)


@functools.cache
def _locking():
    """The reads of :func:`row`, each locking the row it reads."""
    statements = _statements()
    return (statements.by_id.with_for_update(),
            statements.in_project.with_for_update())


def locked_row(conn, volume_id, project_id=None):
    """:func:`row`, the row locked until the transaction ends (``FOR
    UPDATE``; a SQLite writer holds the whole database already)."""
    by_id, in_project = _locking()
    return _one(conn, by_id, in_project, volume_id, project_id)


def _one(conn, by_id, in_project, volume_id, project_id):
    if project_id is None:
        row = conn.execute(by_id, {'volume_id': volume_id}).first()
    else:
        row = conn.execute(in_project, {'volume_id': volume_id,
                                        'project_id': project_id}).first()
    if row is None:
        raise exception.VolumeNotFound(volume_id=volume_id)
    return row


def columns_query(project_id=None):
    """A select of the columns a Volume object is made of (no ORM objects:
    a page of them costs a fraction to read)."""
    # The select of the columns, over the tables (no ORM entities: the
    # ORM's compile of a select of its attributes cost a page as much
    # CPU as SQLite's work), built once.
    q = _statements().columns
    if project_id is not None:
        q = q.where(models.Volume.__table__.c.project_id == project_id)
    return q


def related(conn, volume_ids):
    """{volume id: the metadata, admin metadata, image metadata and
    attachments (those attached, oldest first) of the volume}, in four
    SELECTs for all of ``volume_ids``."""
    related = {volume_id: {'metadata': {}, 'admin_metadata': {},
                           'image_metadata': {}, 'attachments': []}
               for volume_id in volume_ids}
    if not volume_ids:
        return related
    statements = _statements()
    params = {'volume_ids': list(volume_ids)}
    for kind, volume_id, key, value in conn.execute(
            statements.key_values, params):
        related[volume_id][kind][key] = value
    rows = conn.execute(statements.attached, params)
    for row in rows:
        related[row.volume_id]['attachments'].append(
            attachment_obj.Attachment.from_db(row))
    return related
