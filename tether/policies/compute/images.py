"""Policy rules of /images, the proxy to the image API (to 2.35), and
of /images/{image_id}/metadata (to 2.38).

Nova checks no rule of its own for these routes: the image API decides,
with the caller's token, what the caller sees and changes. tether checks
one rule per operation, as for every other; their defaults let anyone
with a token through, as Nova does, and the image API's policies then
decide (its 403 and 404 are the proxy's)."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:images:%s'
LIST = PREFIX % 'list'
DETAIL = PREFIX % 'detail'
SHOW = PREFIX % 'show'
DELETE = PREFIX % 'delete'
META_PREFIX = 'os_compute_api:image-metadata:%s'
META_INDEX = META_PREFIX % 'index'
META_SHOW = META_PREFIX % 'show'
META_CREATE = META_PREFIX % 'create'
META_UPDATE_ALL = META_PREFIX % 'update_all'
META_UPDATE = META_PREFIX % 'update'
META_DELETE = META_PREFIX % 'delete'

# Anyone with a token (Nova checks no rule here).
ANYONE = '@'
_PROXY = (' A proxy to the image API, to microversion %s. Nova checks no '
          'rule here: the default lets anyone with a token through, and '
          'the image API decides with the caller\'s token.')
_IMAGES = _PROXY % '2.35'
_META = _PROXY % '2.38'
_ONE = '/images/{image_id}'
_META_PATH = _ONE + '/metadata'
_KEY_PATH = _META_PATH + '/{key}'

rules = [
    base.rule(LIST, ANYONE, 'List images.' + _IMAGES, [('GET', '/images')]),
    base.rule(DETAIL, ANYONE, 'List images in detail.' + _IMAGES,
              [('GET', '/images/detail')]),
    base.rule(SHOW, ANYONE, 'Show an image.' + _IMAGES, [('GET', _ONE)]),
    base.rule(DELETE, ANYONE, 'Delete an image.' + _IMAGES,
              [('DELETE', _ONE)]),
    base.rule(META_INDEX, ANYONE, 'List the metadata of an image.' + _META,
              [('GET', _META_PATH)]),
    base.rule(META_SHOW, ANYONE, 'Show a metadata item of an image.' + _META,
              [('GET', _KEY_PATH)]),
    base.rule(META_CREATE, ANYONE,
              'Merge metadata items into an image\'s.' + _META,
              [('POST', _META_PATH)]),
    base.rule(META_UPDATE_ALL, ANYONE,
              'Replace the metadata of an image.' + _META,
              [('PUT', _META_PATH)]),
    base.rule(META_UPDATE, ANYONE,
              'Set a metadata item of an image.' + _META,
              [('PUT', _KEY_PATH)]),
    base.rule(META_DELETE, ANYONE,
              'Delete a metadata item of an image.' + _META,
              [('DELETE', _KEY_PATH)]),
]


def list_rules():
    return rules
