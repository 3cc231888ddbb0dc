"""Helpers of the server stories: a server booted from a volume, by raw
HTTP, as its sample shows."""

from tests.functional.api_samples import samples
from tests.functional.compute import server_helpers as sh

VERSION = '2.96'


def boot(cloud, story_name=None, **subs):
    """A member of a new project, its story (``Samples``) and an ACTIVE
    server booted from a new volume (its sample ``story_name`` if given,
    else no sample); the server is deleted after the test."""
    user = cloud.project()
    http = user.compute(VERSION)
    volume = user.volume()
    story = samples.Samples('compute', http, volume_id=volume['id'],
                            **subs)
    body = sh.server_body(volume['id'], name='web', adminPass='s3cret-pass',
                          metadata={'role': 'frontend'})
    if story_name:
        created = story.exchange(story_name, 'POST', '/servers', body,
                                 version=VERSION)
    else:
        resp = http.post('/servers', json=body)
        assert resp.status_code == 202, resp.text
        created = resp.json()
    server_id = created['server']['id']
    user.track(server_id)
    user.wait_server(server_id)
    # The host hashed for the project, a value of its own in each run.
    story.subs.update(server_id=server_id,
                      host_id=user.server(server_id)['hostId'])
    return user, story, server_id
