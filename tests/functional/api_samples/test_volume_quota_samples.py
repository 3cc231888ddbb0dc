"""The volume API's samples of quota sets, limits, services, extensions
and availability zones (doc/api_samples/volume/), replayed."""

import uuid

from oslo_config import cfg

from tests.functional.api_samples import samples

VERSION = '3.71'


def test_the_quota_sets_story(aio):
    member = aio.http(version=VERSION)
    story = samples.Samples('volume', member)
    path = '/os-quota-sets/%s' % member.project
    story.exchange('quota-set-show-usage', 'GET', path + '?usage=True',
                   version=VERSION)
    story.exchange('quota-set-defaults', 'GET', path + '/defaults',
                   version=VERSION)
    story.exchange('limits-show', 'GET', '/limits', version=VERSION)

    admin = aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                     roles=['admin'], version=VERSION)
    story = samples.Samples('volume', admin, target_project=member.project)
    story.exchange('quota-set-update', 'PUT', path, {
        'quota_set': {'volumes': 20, 'gigabytes': 500}}, version=VERSION)
    story.exchange('quota-set-show', 'GET', path, version=VERSION)
    story.exchange('quota-set-delete', 'DELETE', path, version=VERSION)


def test_the_volume_services_story(aio):
    admin = aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                     roles=['admin'], version=VERSION)
    story = samples.Samples('volume', admin, service_host=cfg.CONF.host)
    story.exchange('services-list', 'GET', '/os-services', version=VERSION)
    story.exchange('extensions-list', 'GET', '/extensions', version=VERSION)
    story.exchange('availability-zones-list', 'GET', '/os-availability-zone',
                   version=VERSION)


def test_the_quota_class_sets_story(aio):
    admin = aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                     roles=['admin'], version=VERSION)
    story = samples.Samples('volume', admin)
    name = 'gold-' + uuid.uuid4().hex[:6]
    story.subs['class_name'] = name
    path = '/os-quota-class-sets/%s' % name
    story.exchange('quota-class-set-update', 'PUT', path, {
        'quota_class_set': {'volumes': 20, 'gigabytes': 500}},
        version=VERSION)
    story.exchange('quota-class-set-show', 'GET', path, version=VERSION)
