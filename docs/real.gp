set terminal pngcairo size 1000,760
set output 'docs/real.png'
set multiplot layout 2,1 title 'Debian packages (63697): entityidx beside raw FTS5 with bm25, FTS5 by hand and tantivy'
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key outside right top vertical
set logscale y
set ylabel 'ms'
set xtics rotate by -25 font ',9'
plot 'docs/real-latency.dat' using 2:xtic(1) title 'entityidx p50 (pipe)', '' using 3 title 'entityidx p99 (pipe)', \
     '' using 4 title 'FTS5 bm25 p50', '' using 5 title 'FTS5 bm25 p99', \
     '' using 6 title 'tantivy p50', '' using 7 title 'tantivy p99', \
     '' using 8 title 'FTS5 by hand p50', '' using 9 title 'FTS5 by hand p99'
unset logscale y
set ylabel ''
set yrange [0:*]
set xtics norotate font ',10'
plot 'docs/real-ingest.dat' using 2:xtic(1) title 'entityidx', '' using 3 title 'FTS5 baseline', '' using 4 title 'tantivy', \
     '' using 5 title 'FTS5 by hand'
unset multiplot