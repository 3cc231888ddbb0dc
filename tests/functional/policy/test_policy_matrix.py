"""The policy matrix: every operation of both APIs (from the route
tables) x every persona, against the real APIs with the real policy;
the expected statuses are in matrix.txt.

Per row, the refused calls run first and must leave project A as it was;
then the allowed ones, destructive ones on throwaway resources. No
response to project B or to the service role may show an ID of project
A that its request did not name.
"""

from oslo_serialization import jsonutils
import pytest

from tests.functional.policy import operations
from tests.functional.policy import state
from tests.functional.policy import table

ROWS = table.load()
# Personas that must see nothing of project A (admins see every project).
OUTSIDERS = ('mB', 'rB', 'svc')


def test_the_table_has_every_operation_once():
    declared = table.declared_operations()
    rows = [table.base_operation(name) for name in ROWS]
    missing = sorted(set(declared) - set(rows))
    unknown = sorted(set(rows) - set(declared))
    assert not missing, 'operations without a row: %s' % missing
    assert not unknown, 'rows of no route: %s' % unknown
    assert set(operations.SPECS) <= set(ROWS)


def call(world, name, column, allowed):
    api, method, path, body = operations.request(name, world, allowed)
    resp = world.http(column, api).request(method, path, json=body,
                                           headers=operations.headers(name))
    made = operations.created(name, resp)
    if made:
        world.created.append((api,) + made)
    if column in OUTSIDERS:
        sent = path + jsonutils.dumps(body)
        shown = [i for i in world.a_ids() if i in resp.text and i not in sent]
        assert not shown, '%s as %s shows project A\'s %s: %s' % (
            name, column, shown, resp.text)
    return resp


@pytest.mark.parametrize('name', list(ROWS))
def test_matrix(world, name):
    expected = ROWS[name]
    got, texts = {}, {}
    refused = [c for c in table.COLUMNS if expected[c] >= 300]
    before = state.snapshot(world)
    for column in refused:
        resp = call(world, name, column, allowed=False)
        got[column], texts[column] = resp.status_code, resp.text[:200]
    assert state.snapshot(world) == before, (
        '%s changed project A as one of %s' % (name, refused))
    for column in table.COLUMNS:
        if column not in refused:
            resp = call(world, name, column, allowed=True)
            got[column], texts[column] = resp.status_code, resp.text[:200]
    wrong = {c: (expected[c], got[c], texts[c]) for c in table.COLUMNS
             if got[c] != expected[c]}
    assert not wrong, '%s: persona: (expected, got, body) %s' % (name,
                                                                 wrong)
