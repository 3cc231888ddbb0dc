"""os-retype over HTTP: a volume takes another type on its backend (no
migration), with its multiattach flag; per-type usage moves; what
Cinder refuses is refused, with nothing changed."""

import sqlalchemy as sa

from tests.functional import helpers
from tests.functional.volume import qos_helpers as qh
from tests.functional.volume import retype_helpers as rh
from tether.db import session
from tether.db.volume import models
from tether.db.volume import quota as db_quotas

LATEST = rh.LATEST


def test_retype_without_migration(aio, wait):
    http = aio.http(version=LATEST)
    first, second = rh.vtype(aio), rh.vtype(aio, storage_protocol='nfs',
                                            vendor_name='tether')
    volume = helpers.create_volume(http, volume_type=first['name'],
                                   wait_for=wait, size=2)
    admin = rh.admin(aio)
    before = admin.get('/volumes/%s' % volume['id']).json()['volume']
    for new_type, policy in ((second['id'], 'never'),
                             (first['name'], 'on-demand'),
                             (second['name'], None)):
        resp = rh.retype(http, volume['id'], new_type, policy)
        assert resp.status_code == 202, resp.text
        after = admin.get('/volumes/%s' % volume['id']).json()['volume']
        assert after['volume_type'] in (first['name'], second['name'])
        for key in ('id', 'size', 'name', 'user_id', 'status',
                    'os-vol-host-attr:host', 'os-vol-tenant-attr:tenant_id'):
            assert after[key] == before[key], key
        assert after['migration_status'] is None
        assert after['os-vol-mig-status-attr:migstat'] is None
    assert rh.shown(http, volume['id'])['volume_type'] == second['name']
    assert rh.shown(http, volume['id'])['volume_type_id'] == second['id']
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (2, 0)}


def test_retype_changes_multiattach_of_an_available_volume(aio, wait):
    http = aio.http(version=LATEST)
    plain, multi = rh.vtype(aio), rh.vtype(aio, multiattach='<is> True')
    volume = helpers.create_volume(http, volume_type=plain['id'],
                                   wait_for=wait)
    assert rh.retype(http, volume['id'], multi['id']).status_code == 202
    assert rh.shown(http, volume['id'])['multiattach'] is True
    # In use, the flag does not change: refused, nothing changed.
    rh.attach(http, volume['id'])
    assert rh.shown(http, volume['id'])['status'] == 'in-use'
    message = rh.error(rh.retype(http, volume['id'], plain['id']), 400)
    assert 'multiattach' in message and 'in-use' in message
    shown = rh.shown(http, volume['id'])
    assert (shown['volume_type'], shown['multiattach']) == (
        multi['name'], True)
    # Another multiattach type is fine while in use.
    other = rh.vtype(aio, multiattach='<is> True')
    assert rh.retype(http, volume['id'], other['id']).status_code == 202
    assert rh.shown(http, volume['id'])['volume_type'] == other['name']


def test_refusals_change_nothing(aio, wait):
    http = aio.http(version=LATEST)
    first = rh.vtype(aio)
    volume = helpers.create_volume(http, volume_type=first['id'],
                                   wait_for=wait)
    unsatisfied = rh.vtype(aio, vendor_name='nobody')
    for policy in ('never', 'on-demand'):
        message = rh.error(rh.retype(http, volume['id'], unsatisfied['id'],
                                     policy), 400)
        assert 'does not satisfy' in message and policy in message
    assert 'already' in rh.error(rh.retype(http, volume['id'],
                                           first['name']), 400)
    assert 'nope' in rh.error(rh.retype(http, volume['id'], 'nope'), 404)
    for body in ({'os-retype': {}}, {'os-retype': {'new_type': ''}},
                 {'os-retype': {'new_type': first['id'],
                                'migration_policy': 'sometimes'}},
                 {'os-retype': {'new_type': first['id'], 'x': 1}},
                 {'os-retype': 'x'}):
        resp = http.post('/volumes/%s/action' % volume['id'], json=body)
        assert resp.status_code == 400, (body, resp.text)
    # A private type the project may not use is not found.
    private = rh.admin(aio).post('/types', json={'volume_type': {
        'name': 'private-' + volume['id'][:8],
        'os-volume-type-access:is_public': False}}).json()['volume_type']
    assert rh.retype(http, volume['id'], private['id']).status_code == 404
    # Another project's volume, or an unknown one: 404; a reader: 403.
    other = aio.http(version=LATEST)
    assert rh.retype(other, volume['id'], first['id']).status_code == 404
    reader = aio.http(http.user, http.project, roles=['reader'],
                      version=LATEST)
    assert rh.retype(reader, volume['id'], first['id']).status_code == 403
    # Not available or in-use.
    helpers.db_volume(volume['id'])
    admin = rh.admin(aio)
    admin.post('/volumes/%s/action' % volume['id'],
               json={'os-reset_status': {'status': 'error'}})
    second = rh.vtype(aio)
    assert 'error' in rh.error(rh.retype(http, volume['id'], second['id']),
                               400)
    shown = rh.shown(http, volume['id'])
    assert (shown['volume_type'], shown['status']) == (first['name'],
                                                       'error')


def test_an_attached_volume_keeps_its_front_end_qos(aio, wait):
    http = aio.http(version=LATEST)
    admin = qh.admin(aio)
    front, back = (qh.create(admin, consumer='front-end',
                             total_iops_sec='100'),
                   qh.create(admin, consumer='back-end',
                             total_iops_sec='100'))
    limited, plain, backend_only = rh.vtype(aio), rh.vtype(aio), \
        rh.vtype(aio)
    assert qh.associate(admin, front['id'], limited['id']).status_code == 202
    assert qh.associate(admin, back['id'],
                        backend_only['id']).status_code == 202
    volume = helpers.create_volume(http, volume_type=limited['id'],
                                   wait_for=wait)
    rh.attach(http, volume['id'])
    message = rh.error(rh.retype(http, volume['id'], plain['id']), 400)
    assert 'QoS' in message
    assert rh.shown(http, volume['id'])['volume_type'] == limited['name']
    # Available, it may.
    other = helpers.create_volume(http, volume_type=limited['id'],
                                  wait_for=wait)
    assert rh.retype(http, other['id'], plain['id']).status_code == 202
    # Neither type's specs are the compute host's: an attached volume
    # may.
    attached = helpers.create_volume(http, volume_type=plain['id'],
                                     wait_for=wait)
    rh.attach(http, attached['id'])
    assert rh.retype(http, attached['id'],
                     backend_only['id']).status_code == 202


def _per_type_usage(project_id):
    ctx = helpers.admin_context()
    return {r: in_use for r, (in_use, _reserved) in
            db_quotas.get_usages(ctx, project_id).items() if '_' in r and
            r.split('_')[0] in ('volumes', 'gigabytes')}


def test_per_type_usage_moves_with_the_volume(aio, wait):
    http = aio.http(version=LATEST)
    first, second = rh.vtype(aio), rh.vtype(aio)
    volume = helpers.create_volume(http, volume_type=first['id'],
                                   wait_for=wait, size=3)
    # The create counted it per type (Cinder's volumes_<type>,
    # gigabytes_<type>).
    ctx = helpers.admin_context()
    assert _per_type_usage(http.project) == {
        'volumes_%s' % first['name']: 1, 'gigabytes_%s' % first['name']: 3}
    assert rh.retype(http, volume['id'], second['id']).status_code == 202
    assert _per_type_usage(http.project) == {
        'volumes_%s' % first['name']: 0, 'gigabytes_%s' % first['name']: 0,
        'volumes_%s' % second['name']: 1,
        'gigabytes_%s' % second['name']: 3}
    # Over the new type's limit: refused, nothing moved.
    third = rh.vtype(aio)
    with session.VOLUME.get_context_manager().writer.using(ctx):
        ctx.session.add(models.Quota(project_id=http.project,
                                     resource='gigabytes_%s' % third['name'],
                                     hard_limit=2))
    resp = rh.retype(http, volume['id'], third['id'])
    assert resp.status_code == 413, resp.text
    assert rh.shown(http, volume['id'])['volume_type'] == second['name']
    assert _per_type_usage(http.project)[
        'volumes_%s' % second['name']] == 1
    with session.VOLUME.get_context_manager().writer.using(ctx):
        ctx.session.execute(sa.delete(models.Quota).where(
            models.Quota.project_id == http.project))
