"""What the share client decides on its own, apart from Manila's
answers: which export path it mounts, how an error of the share API
becomes the compute service's, and that a key stays out of a repr.
tests/functional/share/test_share_client.py runs it against a real
Manila."""

import pytest

from tether.compute import share_client


def _location(path, preferred=False, admin_only=False):
    return {'path': path, 'preferred': preferred,
            'is_admin_only': admin_only}


# Unit tests: the real Manila of the functional tests shows one export
# layout per driver (the dummy's preferred path, CephFS's single one);
# the other layouts a backend may list are only seen here.
@pytest.mark.parametrize('locations,chosen', [
    ([], None),
    ([_location('a:/one')], 'a:/one'),
    ([_location('a:/one'), _location('b:/two', preferred=True),
      _location('c:/three', preferred=True)], 'b:/two'),
    # None preferred: an administrator's own path is passed over...
    ([_location('admin:/x', admin_only=True), _location('b:/two')],
     'b:/two'),
    # ...unless it is the only kind there is.
    ([_location('admin:/x', admin_only=True)], 'admin:/x'),
    # A preferred path wins, whoever may use it (as Nova chooses).
    ([_location('b:/two'), _location('admin:/x', preferred=True,
                                     admin_only=True)], 'admin:/x'),
])
def test_the_export_a_host_mounts(locations, chosen):
    assert share_client.choose_export(locations) == chosen


# A unit test: what a dataclass prints is Python's, not Manila's.
def test_the_key_and_the_export_stay_out_of_the_repr():
    access = share_client.Access('rule-1', 'active', 'cephx', 'tether',
                                 access_key='AQBsecret==')
    share = share_client.Share('share-1', 'available', 'CEPHFS',
                               export_location='mon:6789:/volumes/x')
    assert 'AQBsecret' not in repr(access)
    assert 'volumes' not in repr(share)
    assert access.access_key == 'AQBsecret=='
