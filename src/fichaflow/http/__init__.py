"""What every service's HTTP endpoints share: reading a JSON body within a size limit, the
per-address rate limits, and errors as JSON with their HTTP status.

It sits below the services (the game server, the anotador, the Repaso) so that their routers
share these pieces without importing each other.
"""

from fichaflow.http.body import read_json
from fichaflow.http.errors import (
    ErrorAnswer,
    ErrorMessage,
    ErrorRoute,
    error_body,
    error_response,
)
from fichaflow.http.limits import HttpLimits

__all__ = [
    "ErrorAnswer",
    "ErrorMessage",
    "ErrorRoute",
    "HttpLimits",
    "error_body",
    "error_response",
    "read_json",
]
