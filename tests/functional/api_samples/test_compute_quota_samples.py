"""The compute API's samples of quota sets, quota class sets and limits
(doc/api_samples/compute/), replayed."""

import uuid

from tests.functional.api_samples import samples

VERSION = '2.97'


def test_the_quota_sets_story(aio):
    member = aio.compute_http(version=VERSION)
    story = samples.Samples('compute', member)
    path = '/os-quota-sets/%s' % member.project
    story.exchange('quota-set-show', 'GET', path, version=VERSION)
    story.exchange('quota-set-detail', 'GET', path + '/detail',
                   version=VERSION)
    story.exchange('quota-set-defaults', 'GET', path + '/defaults',
                   version=VERSION)
    story.exchange('limits-show', 'GET', '/limits', version=VERSION)

    admin = aio.compute_http('operator', 'ops-' + uuid.uuid4().hex[:8],
                             roles=['admin'], version=VERSION)
    story = samples.Samples('compute', admin, target_project=member.project,
                            member=member.user)
    story.exchange('quota-set-update', 'PUT', path, {
        'quota_set': {'instances': 20, 'cores': 40, 'ram': 102400}},
        version=VERSION)
    story.exchange('quota-set-update-user', 'PUT',
                   path + '?user_id=%s' % member.user,
                   {'quota_set': {'instances': 5}}, version=VERSION)
    story.exchange('quota-set-show-user', 'GET',
                   path + '?user_id=%s' % member.user, version=VERSION)
    story.exchange('quota-set-delete', 'DELETE', path, version=VERSION)
    story.exchange('limits-show-tenant', 'GET',
                   '/limits?tenant_id=%s' % member.project, version=VERSION)


def test_the_quota_class_sets_story(aio):
    admin = aio.compute_http('operator', 'ops-' + uuid.uuid4().hex[:8],
                             roles=['admin'], version=VERSION)
    name = 'gold-' + uuid.uuid4().hex[:6]
    story = samples.Samples('compute', admin, class_name=name)
    path = '/os-quota-class-sets/%s' % name
    story.exchange('quota-class-set-update', 'PUT', path, {
        'quota_class_set': {'instances': 50, 'cores': 100}},
        version=VERSION)
    story.exchange('quota-class-set-show', 'GET', path, version=VERSION)
