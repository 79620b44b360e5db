"""What every service's HTTP endpoints share: reading a JSON body within a size and depth limit,
checking the codes and numbers of an address, the per-address rate limits, and errors as JSON
with their HTTP status.

It sits below the services (the game server, the anotador, the Repaso) so that their routers
share these pieces without importing each other.
"""

from fichaflow.http.body import MAX_JSON_DEPTH, parse_json, read_json
from fichaflow.http.errors import (
    ErrorAnswer,
    ErrorMessage,
    ErrorRoute,
    error_body,
    error_response,
)
from fichaflow.http.limits import HttpLimits
from fichaflow.http.paths import is_code, shown_code, whole_number

__all__ = [
    "MAX_JSON_DEPTH",
    "ErrorAnswer",
    "ErrorMessage",
    "ErrorRoute",
    "HttpLimits",
    "error_body",
    "error_response",
    "is_code",
    "parse_json",
    "read_json",
    "shown_code",
    "whole_number",
]
