"""Binds every scenario of features/ to the step definitions in steps.py."""

from pytest_bdd import scenarios

from steps import *  # noqa: F401,F403  (the step definitions are fixtures pytest-bdd finds by name)

scenarios(
    "ios-location-permissions.feature",
    "permissions.feature",
    "edge-cases.feature",
    "paint-my-town.feature",
    "walks.feature",
    "choose-a-place.feature",
)
