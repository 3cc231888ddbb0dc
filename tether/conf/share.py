"""Configuration (oslo.config): the [share] group, how the compute
service calls the share API (Manila)."""

from oslo_config import cfg

from tether import clients

# How the compute service reaches the share API (Manila), as Nova's
# [manila]: keystoneauth options, plus these.
share_group = cfg.OptGroup('share', title='The share API (Manila), as the '
                                          'compute service calls it')
share_client_opts = clients.peer_opts(
    'sharev2', 'tether-compute:service', 'share API') + [
    cfg.IntOpt('share_apply_policy_timeout', default=10, min=1, max=600,
               help='Seconds tether-compute waits for the share API to '
                    'apply an access rule it asked for (the rule becomes '
                    'active) or to remove one (the rule is gone), looking '
                    'about once a second; the attach or detach of the '
                    'share fails after that. Nova\'s option of the same '
                    'name.'),
    cfg.StrOpt('cephfs_access_to', default='tether',
               regex=r'^[A-Za-z0-9_-]+$',
               help='The cephx identity (client.<name>, without the '
                    '"client." prefix) the share API grants a CEPHFS share '
                    'to, for every compute host; the host mounts the share '
                    'as that identity with the key the access rule '
                    'carries. Letters, digits, "-" and "_" (Manila takes '
                    'any printable name without a period; tether takes '
                    'fewer, so that the name goes into mount options as it '
                    'is). It must not be the identity Manila\'s CephFS '
                    'driver itself uses (its cephfs_auth_id), which Manila '
                    'refuses. Nova grants "nova".'),
]
