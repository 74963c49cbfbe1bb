module semprobe

go 1.22

require github.com/Masterminds/semver/v3 v3.4.0
