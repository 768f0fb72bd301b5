set terminal pngcairo size 900,560
set output 'docs/latency.png'
set logscale x
set xlabel 'entities'
set ylabel 'p99 search latency, ms (in process)'
set key left top
set grid
plot 'docs/latency.dat' using 1:2 with linespoints title 'one word', 'docs/latency.dat' using 1:3 with linespoints title 'two words', 'docs/latency.dat' using 1:4 with linespoints title 'prefix 1', 'docs/latency.dat' using 1:5 with linespoints title 'prefix 2', 'docs/latency.dat' using 1:6 with linespoints title 'prefix 3', 'docs/latency.dat' using 1:7 with linespoints title 'id', 'docs/latency.dat' using 1:8 with linespoints title 'CJK', 'docs/latency.dat' using 1:9 with linespoints title 'misspelt', 'docs/latency.dat' using 1:10 with linespoints title 'filter'