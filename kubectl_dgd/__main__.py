"""``python -m kubectl_dgd``: the ``kubectl-dgd`` console script, for a checkout not installed."""

from kubectl_dgd.cli.entry import main

if __name__ == "__main__":
    main()
