"""Handlers of the server actions createImage and createBackup (POST
/servers/{id}/action), as Nova's servers and create_backup."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import server_images as schema
from tether.api.compute import versions
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_images as images_api
from tether import images
from tether.policies.compute import server_images as policy


def _answer(req, image, location=True):
    """202: from 2.45 ``{"image_id": ...}``; before, no body and the
    image's URL in ``Location`` (unless ``location`` is false)."""
    if microversion.at_least(req, versions.SNAPSHOT_IMAGE_ID):
        return wsgi.json_response({'image_id': image['id']}, status=202)
    resp = wsgi.empty_response(202)
    if location:
        resp.headers['Location'] = images.for_caller(req.context).url(
            image['id'])
    return resp


@responses.declare(None, 202, versions.BASE,
                   microversion.before(versions.SNAPSHOT_IMAGE_ID))
@responses.declare(schema.IMAGE_ID_RESPONSE, 202,
                   versions.SNAPSHOT_IMAGE_ID)
@validation.body(schema.CREATE_IMAGE)
def create_image(req):
    instance = servers.load_server(req, policy.CREATE_IMAGE)
    body = req.validated['createImage']

    def authorize_volume_backed():
        req.context.can(policy.CREATE_IMAGE_VOLUME_BACKED,
                        servers.target(instance))

    image = images_api.create_image(
        req.context, instance, body['name'], body.get('metadata'),
        check_quota=not microversion.at_least(
            req, versions.IMAGE_META_PROXY_REMOVED),
        authorize_volume_backed=authorize_volume_backed)
    return _answer(req, image)


@responses.declare(None, 202, versions.BASE,
                   microversion.before(versions.SNAPSHOT_IMAGE_ID))
@responses.declare(schema.IMAGE_ID_RESPONSE, 202,
                   versions.SNAPSHOT_IMAGE_ID)
@validation.body(schema.CREATE_BACKUP)
def create_backup(req):
    instance = servers.load_server(req, policy.CREATE_BACKUP)
    body = req.validated['createBackup']
    rotation = int(body['rotation'])
    image = images_api.create_backup(
        req.context, instance, body['name'], body['backup_type'], rotation,
        body.get('metadata'))
    # Nova names no image before 2.45 when none is kept (rotation 0).
    return _answer(req, image, location=rotation > 0)


ACTIONS = {
    'createImage': create_image,
    'createBackup': create_backup,
}
