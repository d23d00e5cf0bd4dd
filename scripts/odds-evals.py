"""Issue 59's question on ../shared/games/odds-20x-e216b90.pgn (Chuhe 2+0.02 against
Fairy-Stockfish 40+0.4, both engines' evals in the move comments): when Chuhe first reads
+2.0 or more before ply 80, what did Fairy-Stockfish read at its next move, and how did the
game end? A reading that scores about what Chuhe's own scale predicts (K 421: +2.0 is about
62%) is not over-confidence; losses from it are the deeper search seeing further (horizon).

    python3 scripts/odds-evals.py [PGN] [NAME=Chuhe]
"""
import collections
import re
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "../shared/games/odds-20x-e216b90.pgn"
name = sys.argv[2] if len(sys.argv) > 2 else "Chuhe"
text = open(path, encoding="utf-8").read()
games=[g for g in text.split('[Game "Chinese Chess"]') if g.strip()]
rows=[]
for g in games:
    tags=dict(re.findall(r'\[(\w+) "([^"]*)"\]',g))
    red=tags['Red']; res=tags['Result']
    chuhe_red = red == name
    body=g.split('\n\n',1)[1]
    evals=re.findall(r'\{([+-]?(?:\d+\.\d+|M\d+))/(\d+) ([\d.]+)s\}',body)
    # moves alternate: comments follow each move after the book; figure out side by order
    # use the sequence of comments: even index = first commented mover
    # find first commented move side: count plies before first comment
    first=body.index('{')
    pre=re.sub(r'\d+\.','',body[:first]).split()
    ply0=len(pre)-1  # ply index (0-based) of the first commented move
    score = {'1-0':1,'0-1':0,'1/2-1/2':0.5}[res]
    chuhe_score = score if chuhe_red else 1-score
    seq=[]
    for i,(e,d,t) in enumerate(evals):
        ply=ply0+i
        mover_red = (ply%2==0)
        v = (100.0 if not e.startswith('-') else -100.0) if 'M' in e else float(e)
        who = 'chuhe' if mover_red==chuhe_red else 'fsf'
        seq.append((ply,who,v,int(d)))
    rows.append((chuhe_score,seq))
# first time chuhe >= +2.0 before ply 80; fsf's eval at its next move (its own view)
buckets=collections.defaultdict(list)
for cs,seq in rows:
    for j,(ply,who,v,d) in enumerate(seq):
        if who=='chuhe' and v>=2.0 and ply<80:
            nxt=[x for x in seq[j+1:j+2] if x[1]=='fsf']
            fv = nxt[0][2] if nxt else None
            buckets['hit'].append((cs,ply,v,fv,d))
            break
    else:
        buckets['never'].append(cs)
hits=buckets['hit']
print("games",len(rows),"Chuhe score",sum(r[0] for r in rows))
print("games where Chuhe read >= +2.0 before ply 80:",len(hits),"its score in them",sum(h[0] for h in hits))
for cat,f in [("FSF agrees (its own eval <= -1.0)",lambda x: x is not None and x<=-1.0),("FSF near level (-1.0..+0.5)",lambda x: x is not None and -1.0<x<0.5),("FSF thinks itself better (>= +0.5)",lambda x: x is not None and x>=0.5)]:
    sel=[h for h in hits if f(h[3])]
    print(f"  {cat}: {len(sel)} games, Chuhe scored {sum(h[0] for h in sel)}, mean Chuhe depth {sum(h[4] for h in sel)/max(1,len(sel)):.1f}")
print("games never >= +2.0:",len(buckets['never']),"score",sum(buckets['never']))
