#!/usr/bin/env python
"""Django's command-line utility for Muster."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
    from django.core.management import execute_from_command_line

    from muster.config import load_settings_or_exit

    load_settings_or_exit()  # a configuration error: one line, exit 2

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
