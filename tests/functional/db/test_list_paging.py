"""The cost of a page of a list does not grow with the rows before it or
in it: the page after a marker starts at the marker in an index, and a
page runs the same statements whatever its size (no query per row).

Stated without timing: the SQL statements a list runs, caught on the
engines, and SQLite's plan of the page's SELECT (tools/bench/scale.py
measures the times)."""

import threading
import uuid

import sqlalchemy as sa

from tests.functional import helpers
from tether.db.compute import instance as db_instances
from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import volume as db_volumes
from tether.db.volume import volume_type as volume_types


def statements(database, fn):
    """[(statement, parameters)] that ``fn()`` runs on ``database`` (in
    this thread: the aio's services write their own rows meanwhile)."""
    caught = []
    manager = database.get_context_manager()
    engines = {manager.writer.get_engine(), manager.reader.get_engine()}
    caller = threading.get_ident()

    def listener(conn, cursor, statement, parameters, context, many):
        if threading.get_ident() == caller:
            caught.append((statement, parameters))
    for engine in engines:
        sa.event.listen(engine, 'before_cursor_execute', listener)
    try:
        fn()
    finally:
        for engine in engines:
            sa.event.remove(engine, 'before_cursor_execute', listener)
    return caught


def page_plan(database, caught):
    """SQLite's plan of the one statement with a LIMIT among ``caught``."""
    pages = [(s, p) for s, p in caught if 'LIMIT' in s]
    assert len(pages) == 1, pages
    statement, parameters = pages[0]
    with database.get_engine().connect() as conn:
        return ' / '.join(row[-1] for row in conn.exec_driver_sql(
            'EXPLAIN QUERY PLAN ' + statement, parameters))


def _volumes(project, count):
    ctx = helpers.admin_context()
    type_id = volume_types.get_by_name_or_id(ctx, '__DEFAULT__').id
    return [db_volumes.create(ctx, {
        'id': str(uuid.uuid4()), 'project_id': project, 'host': 'h@b#p',
        # A whole volume, as the API makes one: an admin's list of every
        # project's volumes shows these rows too, checked against the
        # response it declares.
        'user_id': 'pager', 'availability_zone': 'nova',
        'size': 1, 'status': 'available', 'attach_status': 'detached',
        'bootable': False, 'multiattach': False,
        'volume_type_id': type_id}).id for _ in range(count)]


def test_a_volume_page_after_a_marker_starts_at_the_marker(aio):
    """Regression: the page's WHERE was only ``created_at < m OR
    (created_at = m AND id < i)``, which SQLite cannot search an index
    with: it walked the project's index from the newest volume and
    skipped every volume before the marker (a page deep in 100,000
    volumes cost twice the first)."""
    project = 'paging-' + uuid.uuid4().hex[:8]
    ids = _volumes(project, 5)
    ctx = helpers.admin_context()
    for scope in (project, None):
        caught = statements(session.VOLUME, lambda: db_volumes.get_all(
            ctx, scope, marker=ids[2], limit=2))
        plan = page_plan(session.VOLUME, caught)
        assert 'created_at<' in plan, plan


def test_a_server_page_after_a_marker_starts_at_the_marker(aio):
    project = 'paging-' + uuid.uuid4().hex[:8]
    ctx = helpers.admin_context()
    uuids = []
    for i in range(5):
        uuids.append(str(uuid.uuid4()))
        db_instances.create_on_host(ctx, {
            'uuid': uuids[-1], 'project_id': project, 'user_id': 'u',
            # A whole server, as the API makes one (a name, a hostname,
            # a flavor): an admin's list of every project's servers (the
            # policy matrix's) shows these rows too, checked against the
            # response it declares.
            'display_name': 'vm-%d' % i, 'hostname': 'vm-%d' % i,
            'availability_zone': 'nova',
            'flavor': {'id': '1', 'name': 'm1.nano', 'memory_mb': 64,
                       'vcpus': 1, 'root_gb': 0, 'ephemeral_gb': 0,
                       'swap': 0, 'extra_specs': {}},
            'memory_mb': 64, 'vcpus': 1, 'vm_state': 'active',
            'power_state': 1, 'locked': False, 'deleted': False,
            'metadata': {}}, [], [], {
                'action': 'create', 'instance_uuid': uuids[-1],
                'request_id': 'req-%d' % i})
    caught = statements(session.COMPUTE, lambda: db_instances.get_all(
        ctx, project, marker=uuids[2], limit=2))
    plan = page_plan(session.COMPUTE, caught)
    assert 'created_at<' in plan, plan


def test_a_volume_page_runs_the_same_statements_whatever_its_size(aio):
    """A page of 2 and a page of 20 volumes run as many statements, and a
    page after a marker one more than the first page (the marker's sort
    keys). Regression: the marker's row was read with the relations of a
    listed volume, four SELECTs more (metadata, admin metadata, image
    metadata, attachments)."""
    project = 'paging-' + uuid.uuid4().hex[:8]
    ids = _volumes(project, 30)
    ctx = helpers.admin_context()

    def count(**kwargs):
        return len(statements(session.VOLUME, lambda: db_volumes.get_all(
            ctx, project, **kwargs)))
    first = count(limit=2)
    assert count(limit=20) == first
    assert count(marker=ids[25], limit=2) == first + 1
    assert count(marker=ids[25], limit=20) == first + 1


def test_every_projects_attachments_are_read_in_the_order_of_an_index(aio):
    """Regression: an admin's list of every project's attachments sorted
    all of them (``USE TEMP B-TREE FOR ORDER BY``) for each page."""
    ctx = helpers.admin_context()
    caught = statements(session.VOLUME, lambda: db_attachments.get_all(
        ctx, None, limit=2))
    plan = page_plan(session.VOLUME, caught)
    assert 'volume_attachment_created_idx' in plan, plan
    assert 'TEMP B-TREE' not in plan, plan


def test_a_projects_attachments_are_read_in_the_order_of_an_index(aio):
    """Regression: a project's list of attachments joined them with every
    volume of the project, then sorted them all, for each page."""
    project = 'paging-' + uuid.uuid4().hex[:8]
    ctx = helpers.admin_context()
    volume_ids = _volumes(project, 3)
    made = []
    for volume_id in volume_ids:
        with session.VOLUME.writing(ctx):
            made.append(db_attachments.insert(ctx, {
                'id': str(uuid.uuid4()), 'volume_id': volume_id,
                'attach_status': 'reserved'}))
    assert {a.project_id for a in made} == {project}
    caught = statements(session.VOLUME, lambda: db_attachments.get_all(
        ctx, project, marker=made[1].id, limit=1))
    plan = page_plan(session.VOLUME, caught)
    assert 'volume_attachment_project_created_idx' in plan, plan
    assert 'TEMP B-TREE' not in plan, plan
    assert 'volumes' not in plan, plan
    assert [a.id for a in db_attachments.get_all(ctx, project)] == [
        a.id for a in reversed(made)]
