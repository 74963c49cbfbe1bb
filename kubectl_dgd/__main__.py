from kubectl_dgd.cli.main import main

main()
