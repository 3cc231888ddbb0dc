"""Queries of os-hosts: how many volumes and snapshots (and their GiB)
each project has on one backend."""

import sqlalchemy as sa

from tether.db import session
from tether.db.volume import models

db = session.VOLUME
V = models.Volume
S = models.Snapshot


def _on(host):
    # "host@backend" holds its pools' volumes, "host@backend#pool".
    return sa.or_(V.host == host,
                  V.host.startswith(host + '#', autoescape=True))


@db.reader
def usage_by_project(context, host):
    """{project: (volumes, volume GiB, snapshots, snapshot GiB)} of the
    volumes on ``host`` and their snapshots."""
    usage = {}
    for project, count, gb in context.session.execute(
            sa.select(V.project_id, sa.func.count(V.id),
                      sa.func.coalesce(sa.func.sum(V.size), 0))
            .where(_on(host)).group_by(V.project_id)):
        usage[project] = [int(count), int(gb), 0, 0]
    for project, count, gb in context.session.execute(
            sa.select(S.project_id, sa.func.count(S.id),
                      sa.func.coalesce(sa.func.sum(S.volume_size), 0))
            .join(V, V.id == S.volume_id)
            .where(_on(host)).group_by(S.project_id)):
        row = usage.setdefault(project, [0, 0, 0, 0])
        row[2:] = [int(count), int(gb)]
    return {project: tuple(row) for project, row in usage.items()}
