"""The cases of the official suite and where they are mirrored.

``OFFICIAL`` is every test of ``sockjs-protocol-0.3.3.py`` (sockjs/sockjs-protocol),
class by class, in file order: 68 cases. ``LATER`` are the cases later
revisions of the suite added. Each is mirrored by the test of the same class
and name in test_sockjs_protocol.py; test_coverage.py checks both ways.
"""

OFFICIAL = {
    "BaseUrlGreeting": ["test_greeting", "test_notFound"],
    "IframePage": ["test_simpleUrl", "test_versionedUrl", "test_queriedUrl",
                   "test_invalidUrl", "test_cacheability"],
    "InfoTest": ["test_basic", "test_entropy", "test_options", "test_options_null_origin",
                 "test_disabled_websocket"],
    "SessionURLs": ["test_anyValue", "test_invalidPaths", "test_ignoringServerId"],
    "Protocol": ["test_simpleSession", "test_closeSession"],
    "WebsocketHttpErrors": ["test_httpMethod", "test_invalidConnectionHeader",
                            "test_invalidMethod"],
    "WebsocketHixie76": ["test_transport", "test_close", "test_empty_frame",
                         "test_reuseSessionId", "test_haproxy", "test_broken_json"],
    "WebsocketHybi10": ["test_transport", "test_close", "test_headersSanity",
                        "test_broken_json", "test_firefox_602_connection_header"],
    "XhrPolling": ["test_options", "test_transport", "test_invalid_session",
                   "test_invalid_json", "test_content_types", "test_request_headers_cors"],
    "XhrStreaming": ["test_options", "test_transport", "test_response_limit"],
    "EventSource": ["test_transport", "test_response_limit"],
    "HtmlFile": ["test_transport", "test_no_callback", "test_response_limit"],
    "JsonPolling": ["test_transport", "test_no_callback", "test_invalid_json",
                    "test_content_types", "test_close"],
    "JsessionidCookie": ["test_basic", "test_xhr", "test_xhr_streaming", "test_eventsource",
                         "test_htmlfile", "test_jsonp"],
    "RawWebsocket": ["test_transport", "test_close"],
    "JSONEncoding": ["test_xhr_server_encodes", "test_xhr_server_decodes"],
    "HandlingClose": ["test_close_frame", "test_close_request", "test_abort_xhr_streaming",
                      "test_abort_xhr_polling"],
    "Http10": ["test_synchronous", "test_streaming"],
    "Http11": ["test_synchronous", "test_streaming"],
}

LATER = {
    "XhrPolling": ["test_sending_empty_frame"],
    "HtmlFile": ["test_invalid_callback"],
    "JsonPolling": ["test_invalid_callback", "test_sending_empty_frame"],
}


def cases(table):
    return [(cls, name) for cls, names in table.items() for name in names]
