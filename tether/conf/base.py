"""Configuration (oslo.config): the [DEFAULT] options both services
read (host, state, auth, heartbeats, paging) and the volume service's own
(zone, volume type, backends, images)."""

import socket

from oslo_config import cfg

default_opts = [
    cfg.StrOpt('host', default=socket.gethostname(),
               sample_default='<hostname>',
               help='Name of this host, as services and volumes record it.'),
    cfg.StrOpt('state_path', default='/var/lib/tether',
               help='Top-level directory for tether state.'),
    cfg.StrOpt('auth_strategy', default='keystone',
               choices=[('keystone', 'keystonemiddleware auth_token'),
                        ('noauth', 'trust X-Auth-Token "<user>:<project>"; '
                                   'for development only')],
               help='How API requests are authenticated.'),
    cfg.IntOpt('report_interval', default=10, min=1,
               help='Seconds between service heartbeats in the database.'),
    cfg.IntOpt('service_down_time', default=60, min=1,
               help='A service whose last heartbeat is older than this many '
                    'seconds is considered down.'),
    cfg.IntOpt('osapi_max_limit', default=1000, min=1,
               help='The largest page a list request returns.'),
    cfg.StrOpt('storage_availability_zone', default='nova',
               help='Availability zone of this volume service.'),
    cfg.StrOpt('default_volume_type', default='__DEFAULT__',
               help='Name of the volume type used when none is given.'),
    cfg.StrOpt('default_group_type',
               help='Name of the group type GET /group_types/default '
                    'shows (as Cinder\'s option: unset, there is none).'),
    cfg.ListOpt('enabled_backends', default=[],
                help='Names of the configuration groups that describe the '
                     'backends this tether-volume serves (one RPC server '
                     'each, addressed as <host>@<backend>).'),
    cfg.IntOpt('rpc_response_timeout_volume', default=60, min=1,
               help='Seconds to wait for a reply from tether-volume.'),
    cfg.StrOpt('image_conversion_dir', default='$state_path/conversion',
               help='Directory where tether-volume downloads an image '
                    'before it writes the image into a volume; each '
                    'download is removed once written. It needs room for '
                    'the largest image downloaded at once, and for the '
                    'image file of the largest volume uploaded to an '
                    'image at once.'),
    cfg.BoolOpt('enable_force_upload', default=False,
                help='Let os-volume_upload_image with "force": true upload '
                     'an in-use volume (as Cinder\'s option of the same '
                     'name). The image is then a copy of a disk a running '
                     'guest may be writing: as consistent as the disk of a '
                     'guest that crashed. While this is false, an in-use '
                     'volume is refused whatever "force" says.'),
]
