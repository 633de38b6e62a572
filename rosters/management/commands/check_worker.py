"""python manage.py check_worker [--timeout 10]: asks a print worker what it works with
(rosters.health) and says it. Exit 0 when a worker answered on this site's database
and can make PDFs, 1 otherwise, 2 on a bad option."""

from django.core.management.base import BaseCommand, CommandError

from rosters import health


class Command(BaseCommand):
    help = "Check that a print worker answers on this site's queue, uses its database and can make PDFs."

    def add_arguments(self, parser):
        parser.add_argument("--timeout", type=float, default=10, help="seconds to wait for an answer (default 10)")

    def handle(self, *args, timeout, **options):
        if not 0 < timeout <= health.MAX_TIMEOUT:
            raise CommandError(f"--timeout must be more than 0 and at most {health.MAX_TIMEOUT} seconds.",
                               returncode=2)
        check = health.check_worker(timeout)
        answer = check.answer
        if check.inline:
            self.stdout.write("No broker is configured (REDIS_URL is empty): sheets render inline, in the web "
                              "process; no worker is needed.")
        elif answer:
            self.stdout.write(f"Worker {answer['hostname']} (pid {answer['pid']}) answered in {check.seconds:.1f} s.")
        if answer:
            self.stdout.write(f"  database    {health.describe_database(answer)}")
            self.stdout.write(f"  queue       {answer['queue'] or '(inline)'}")
            self.stdout.write(f"  WeasyPrint  {answer['weasyprint'] or 'not available'}")
            self.stdout.write(f"  MEDIA_ROOT  {answer['media_root']}")
        for problem in check.problems:
            self.stderr.write(problem)
        if check.problems:
            raise CommandError("The print worker check failed.", returncode=1)
        self.stdout.write(self.style.SUCCESS("The print worker is ready."))
