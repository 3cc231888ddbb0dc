"""Configuration (oslo.config): how the services call each other's API
([volume], [compute]) and Glance's ([image])."""

from oslo_config import cfg

from tether import clients

# How each service reaches the other's API (as Nova's [cinder] and
# Cinder's [nova]): keystoneauth options, plus these.
volume_group = cfg.OptGroup('volume', title='The volume API, as the compute '
                                            'service calls it')
volume_client_opts = clients.peer_opts(
    'block-storage', 'tether-compute:service:admin,service', 'volume API')
compute_group = cfg.OptGroup('compute', title='The compute API, as the '
                                              'volume service calls it')
compute_client_opts = clients.peer_opts(
    'compute', 'tether-volume:service:admin,service', 'compute API')
# How both services reach the image API (Glance), as Nova's and Cinder's
# [glance].
image_group = cfg.OptGroup('image', title='The image API (Glance), as the '
                                          'volume and compute services '
                                          'call it')
image_client_opts = clients.peer_opts(
    'image', 'tether:service:admin,service', 'image API') + [
    cfg.IntOpt('read_timeout', default=60, min=1,
               help='Seconds a call to the image API waits for the next '
                    'bytes of its answer (of a download too) before it '
                    'gives up: a store that stalls fails the operation '
                    'rather than holding it forever.'),
    cfg.ListOpt('allowed_direct_url_schemes', default=[],
                item_type=cfg.types.String(choices=['file']),
                help='Schemes of an image\'s direct URL that tether reads '
                     'the image\'s data from itself instead of downloading '
                     'it through the image API: "file", the image API\'s '
                     'filesystem store where this host sees it (at the '
                     'same path). The image API shows the URL only with '
                     'its show_image_direct_url = True. The data is '
                     'inspected and checked against the image API\'s hash '
                     'all the same; a file that cannot be read here is '
                     'downloaded. Cinder\'s option of the same name.'),
    cfg.ListOpt('direct_url_file_dirs', default=[],
                help='Directories a "file" direct URL may point into: the '
                     'image API\'s filesystem_store_datadir. A file '
                     'anywhere else is never read (the image is '
                     'downloaded through the image API).'),
]
