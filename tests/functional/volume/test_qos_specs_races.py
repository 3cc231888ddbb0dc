"""QoS specs raced over HTTP against the real database, each request on
its own session: two associates of one type, an associate and a delete,
a force delete and an associate. Exactly one wins; the type has one
specs or none, never specs that are gone."""

from tests.functional import helpers
from tests.functional.volume import qos_helpers as qh


def test_two_associates_of_one_type(aio):
    for _ in range(4):
        sessions = [qh.admin(aio), qh.admin(aio)]
        specs = [qh.create(sessions[0]), qh.create(sessions[0])]
        vtype = qh.vtype(sessions[0])
        results = helpers.race([
            lambda s=s, q=q: qh.associate(s, q['id'], vtype['id'])
            for s, q in zip(sessions, specs)])
        statuses = [r.status_code for r in results]
        assert sorted(statuses) == [202, 400], [r.text for r in results]
        winner = specs[statuses.index(202)]
        loser = specs[statuses.index(400)]
        assert qh.type_qos(sessions[0], vtype['id']) == winner['id']
        assert qh.associations(sessions[0], winner['id']) == [vtype['id']]
        assert qh.associations(sessions[0], loser['id']) == []


def test_an_associate_and_a_delete(aio):
    outcomes = set()
    for _ in range(6):
        one, two = qh.admin(aio), qh.admin(aio)
        qos = qh.create(one)
        vtype = qh.vtype(one)
        associated, deleted = helpers.race([
            lambda: qh.associate(one, qos['id'], vtype['id']),
            lambda: two.delete('/qos-specs/%s' % qos['id'])])
        statuses = (associated.status_code, deleted.status_code)
        outcomes.add(statuses)
        if statuses == (202, 400):
            # The type took the specs first: they stay, in use.
            assert qh.type_qos(one, vtype['id']) == qos['id']
            assert qh.show(one, qos['id'])['id'] == qos['id']
        else:
            # Deleted first: the type has none.
            assert statuses == (404, 202), (associated.text, deleted.text)
            assert qh.type_qos(one, vtype['id']) is None
            assert one.get('/qos-specs/%s' % qos['id']).status_code == 404


def test_a_force_delete_and_an_associate(aio):
    for _ in range(6):
        one, two = qh.admin(aio), qh.admin(aio)
        qos = qh.create(one)
        first, second = qh.vtype(one), qh.vtype(one)
        assert qh.associate(one, qos['id'], first['id']).status_code == 202
        deleted, associated = helpers.race([
            lambda: one.delete('/qos-specs/%s?force=true' % qos['id']),
            lambda: qh.associate(two, qos['id'], second['id'])])
        assert qh.type_qos(one, first['id']) is None
        if deleted.status_code == 202:
            assert associated.status_code in (202, 404), associated.text
            assert one.get('/qos-specs/%s' % qos['id']).status_code == 404
            assert qh.type_qos(one, second['id']) is None
        else:
            # The associate committed between the force delete's
            # disassociate and its delete: refused, nothing deleted.
            assert (deleted.status_code, associated.status_code) == (
                400, 202), (deleted.text, associated.text)
            assert qh.type_qos(one, second['id']) == qos['id']
