"""Images of the image API as the compute API's /images shows them:
Nova's keys, statuses and links."""

from urllib import parse

from oslo_utils import strutils
from oslo_utils import timeutils

from tether.api.compute import versions
from tether.compute.api import images as images_api

# The image API's statuses as Nova shows them (else UNKNOWN), and how far
# along Nova says an image is (else 0).
STATUSES = {'active': 'ACTIVE', 'queued': 'SAVING', 'saving': 'SAVING',
            'deleted': 'DELETED', 'pending_delete': 'DELETED',
            'killed': 'ERROR'}
PROGRESS = {'queued': 25, 'saving': 50, 'active': 100}
IMAGE_TYPE = 'application/vnd.openstack.image'


def _time(value):
    """Nova's ``%Y-%m-%dT%H:%M:%SZ`` of the image API's time, or None."""
    if not value:
        return None
    parsed = timeutils.normalize_time(timeutils.parse_isotime(value))
    return parsed.strftime('%Y-%m-%dT%H:%M:%SZ')


class ImageView:
    """Images as JSON, with the links of the request's endpoint and the
    image API's URL ``image_api`` (version-less) for the alternate
    link."""

    def __init__(self, req, image_api):
        self.req = req
        self.image_api = image_api
        # The project is in the links when it was in the URL (Nova).
        project = req.urlvars.get('project_id')
        self.prefix = '/' + project if project else ''

    def links(self, kind, item_id):
        path = '%s/%s/%s' % (self.prefix, kind, parse.quote(item_id,
                                                            safe=''))
        return [{'rel': 'self', 'href': versions.endpoint(self.req) + path},
                {'rel': 'bookmark',
                 'href': self.req.application_url + path}]

    def basic(self, image):
        return {'id': image['id'], 'name': image.get('name'),
                'links': self.links('images', image['id']) + [{
                    'rel': 'alternate', 'type': IMAGE_TYPE,
                    'href': '%s/images/%s' % (self.image_api,
                                              image['id'])}]}

    def detail(self, image):
        status = image.get('status')
        metadata = images_api.properties(image)
        out = self.basic(image)
        out.update({
            'minRam': int(image.get('min_ram') or 0),
            'minDisk': int(image.get('min_disk') or 0),
            'metadata': metadata,
            'created': _time(image.get('created_at')),
            'updated': _time(image.get('updated_at')),
            'status': STATUSES.get(status, 'UNKNOWN'),
            'progress': PROGRESS.get(status, 0),
            'OS-EXT-IMG-SIZE:size': image.get('size') or 0,
        })
        server_id = metadata.get('instance_uuid')
        if server_id is not None:
            out['server'] = {'id': server_id,
                             'links': self.links('servers', server_id)}
        auto = metadata.get('auto_disk_config')
        if auto is not None:
            out['OS-DCF:diskConfig'] = (
                'AUTO' if strutils.bool_from_string(auto) else 'MANUAL')
        return out
