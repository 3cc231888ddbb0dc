"""Configuration (oslo.config): the [DEFAULT] options of the volume API's
built-in server and of the paste pipelines of both APIs, and [api], how
both APIs check what they answer."""

from oslo_config import cfg

api_opts = [
    cfg.HostAddressOpt('osapi_volume_listen', default='0.0.0.0',
                       help='Address the volume API listens on.'),
    cfg.PortOpt('osapi_volume_listen_port', default=8776,
                help='Port the volume API listens on.'),
    cfg.IntOpt('osapi_volume_threads', default=16, min=1,
               help='Worker threads of the built-in volume API server.'),
    cfg.StrOpt('api_paste_config', default='api-paste.ini',
               help='The PasteDeploy file that defines the WSGI pipelines '
                    'of the volume and compute APIs ([composite:'
                    'osapi_volume] and [composite:osapi_compute], one '
                    'pipeline per auth_strategy). An absolute path, or a '
                    'name looked for beside the configuration files, then '
                    'in ~/.tether/, ~/, /etc/tether/ and /etc/. While this '
                    'option is not set and no such file is found, the copy '
                    'of etc/tether/api-paste.ini shipped inside the tether '
                    'package is used; a file set here that cannot be found '
                    'stops the API from starting.'),
]

api_group = cfg.OptGroup('api', title='Both APIs')

api_group_opts = [
    cfg.StrOpt('response_validation', default='ignore',
               choices=[
                   ('error', 'a response that does not match its schema '
                             'becomes a 500 that says how (tests and CI)'),
                   ('warn', 'it is logged as a warning and answered'),
                   ('ignore', 'responses are not checked')],
               help='Whether each response body and status of both APIs '
                    'is checked against the response schema its handler '
                    'declares for the request\'s microversion (the '
                    'schemas the OpenAPI description publishes). Checking '
                    'costs CPU on every request, so it is off unless '
                    'asked for; tether\'s own tests and its CI jobs run '
                    'with "error".'),
]
