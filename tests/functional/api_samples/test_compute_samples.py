"""The compute API's samples (doc/api_samples/compute/), replayed: each
exchange of a story must answer what its sample says."""

from tests.functional.api_samples import samples

PUBLIC_KEY = ('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGc7S0dK1h1qoH9kqkJ3u1'
              'r2mXK6C0vLr2C0l5v0W9xQ me@laptop')


def test_the_keypairs_story(aio):
    http = aio.compute_http(version='2.92')
    story = samples.Samples('compute', http)
    story.exchange('keypair-import', 'POST', '/os-keypairs', {
        'keypair': {'name': 'laptop', 'public_key': PUBLIC_KEY,
                    'type': 'ssh'}}, version='2.92')
    story.exchange('keypairs-list', 'GET', '/os-keypairs', version='2.92')
    story.exchange('keypair-show', 'GET', '/os-keypairs/laptop',
                   version='2.92')
    story.exchange('keypair-delete', 'DELETE', '/os-keypairs/laptop',
                   version='2.92')


def test_the_flavors_story(aio):
    http = aio.compute_http(version='2.75')
    story = samples.Samples('compute', http)
    flavors = story.exchange('flavors-list', 'GET', '/flavors',
                             version='2.75')['flavors']
    first = sorted(flavors, key=lambda f: f['name'])[0]
    story.subs['flavor_id'] = first['id']
    story.exchange('flavor-show', 'GET', '/flavors/%s' % first['id'],
                   version='2.75')
    story.exchange('flavors-list-detail', 'GET', '/flavors/detail',
                   version='2.75')
