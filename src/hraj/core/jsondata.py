"""The shapes of data that cross a JSON boundary: records, options, views and messages.

Code that reads such data names what it expects with these types instead of `Any`, so
mypy checks every reader; data from outside (a file, a request) arrives as `object` and
is checked before it is trusted.
"""

from __future__ import annotations

from typing import TypeAlias

#: Any value JSON can carry.
JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
#: One game option's value once its check has normalised it: a number, a yes/no, a word
#: or a path, or None where the option is left to chance or to its default file.
OptionSetting: TypeAlias = "int | bool | str | None"
#: A game's options by name, normalised.
GameOptions: TypeAlias = "dict[str, OptionSetting]"
